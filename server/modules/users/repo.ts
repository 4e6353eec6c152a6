import type { Kysely } from 'kysely';
import type { Role } from '../../../contract/users.js';

export interface ListUsersOptions {
  sort?: { column: 'first_name' | 'last_name' | 'email' | 'created_at'; direction: 'asc' | 'desc' };
  page?: { skip: number; take: number };
}
import type { Database, NewUser, UserRow } from '../../db/schema.js';

export interface UserWithRoles extends UserRow {
  roles: Role[];
}

export class UsersRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async findById(id: string): Promise<UserWithRoles | undefined> {
    const user = await this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return user && { ...user, roles: await this.rolesOf(id) };
  }

  async findByEmail(email: string): Promise<UserWithRoles | undefined> {
    const user = await this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
    return user && { ...user, roles: await this.rolesOf(user.id) };
  }

  async rolesOf(userId: string): Promise<Role[]> {
    const rows = await this.db
      .selectFrom('user_roles')
      .select('role')
      .where('user_id', '=', userId)
      .orderBy('role')
      .execute();
    return rows.map((r) => r.role as Role);
  }

  /** Inserts the user and its roles in one transaction. */
  async insert(user: NewUser, roles: Role[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values(user).execute();
      if (roles.length > 0) {
        await trx
          .insertInto('user_roles')
          .values(roles.map((role) => ({ user_id: user.id, role })))
          .execute();
      }
    });
  }

  async countWithRole(role: Role): Promise<number> {
    const row = await this.db
      .selectFrom('user_roles')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('role', '=', role)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** One page of users with their roles, plus the total; the sort column comes from an allowlist. */
  async list(options: ListUsersOptions): Promise<{ rows: UserWithRoles[]; total: number }> {
    let query = this.db.selectFrom('users').selectAll();
    if (options.sort) query = query.orderBy(options.sort.column, options.sort.direction);
    query = query.orderBy('id');
    if (options.page) query = query.limit(options.page.take).offset(options.page.skip);
    const [rows, count] = await Promise.all([
      query.execute(),
      this.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    const roles = rows.length
      ? await this.db
          .selectFrom('user_roles')
          .select(['user_id', 'role'])
          .where(
            'user_id',
            'in',
            rows.map((r) => r.id),
          )
          .execute()
      : [];
    return {
      rows: rows.map((row) => ({
        ...row,
        roles: roles.filter((r) => r.user_id === row.id).map((r) => r.role as Role),
      })),
      total: Number(count.n),
    };
  }
}
