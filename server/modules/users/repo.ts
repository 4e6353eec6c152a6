import { sql, type CompiledQuery, type ExpressionBuilder, type Kysely, type Transaction } from 'kysely';
import type { Role } from '../../../contract/users.js';

import type { Db, Dialect } from '../../db/index.js';
import type { Database, NewUser, UserRow } from '../../db/schema.js';
import { recordActivity } from '../activity/index.js';
import { enqueue } from '../jobs/index.js';

export interface UserWithRoles extends UserRow {
  roles: Role[];
  /** Linked Google and Facebook accounts (0 or 1 each). */
  google_links: number;
  facebook_links: number;
}

type UserRoleRow = UserRow & { role: string | null; google_links: number | string; facebook_links: number | string };
type UserSessionRow = UserRoleRow & { session_id: string | null; session_expires_at: string | null; session_ended_at: string | null; session_last_active_at: string | null };

/** The session an access token belongs to, as the guard reads it with the user. */
export interface AuthSession {
  id: string;
  expires_at: string;
  last_active_at: string;
}

/** How many accounts of a provider are linked to the user of the outer query (a literal, so no parameter). */
function linkCount(eb: ExpressionBuilder<Database, 'users'>, provider: 'google' | 'facebook', alias: `${typeof provider}_links`) {
  return eb
    .selectFrom('social_accounts')
    .select((inner) => inner.fn.countAll<number>().as('n'))
    .whereRef('social_accounts.user_id', '=', 'users.id')
    .where('social_accounts.provider', '=', sql.lit(provider))
    .as(alias);
}

/**
 * Folds the rows of a users-left-join-user_roles query into one user with its roles. The object is
 * built field by field: driver rows are dictionary-shaped, and spreading them was the single most
 * expensive step of an authenticated request.
 */
function withRoles(rows: UserRoleRow[]): UserWithRoles | undefined {
  const row = rows[0];
  if (!row) return undefined;
  const roles: Role[] = [];
  for (const r of rows) if (r.role) roles.push(r.role as Role);
  roles.sort();
  return {
    id: row.id,
    email: row.email,
    password_hash: row.password_hash,
    first_name: row.first_name,
    last_name: row.last_name,
    email_verified_at: row.email_verified_at,
    signup_source: row.signup_source,
    created_at: row.created_at,
    updated_at: row.updated_at,
    phone: row.phone,
    newsletter: row.newsletter,
    language: row.language,
    coupon_code: row.coupon_code,
    tokens_valid_after: row.tokens_valid_after,
    country: row.country,
    last_launched_at: row.last_launched_at,
    downloaded_at: row.downloaded_at,
    google_connected: row.google_connected,
    facebook_connected: row.facebook_connected,
    is_admin: row.is_admin,
    plan: row.plan,
    segment: row.segment,
    two_factor_enabled: row.two_factor_enabled,
    roles,
    google_links: Number(row.google_links),
    facebook_links: Number(row.facebook_links),
  };
}

/** Told after a change to an account's row, roles or links has committed (what instances keep of it is forgotten). */
export type AccountChanged = (userId: string) => void;

/** The job a new account queues in the transaction that creates it; the analytics module counts the sign-up. */
export const SIGNED_UP_JOB = 'user-signed-up';

export class UsersRepo {
  /**
   * The user-with-roles lookup runs whenever an authenticated request finds nothing kept (./signed-in.ts),
   * so it is one query, compiled once; each call only binds the id. (Building the query with Kysely cost
   * as much as running it.)
   */
  private readonly byIdQuery: CompiledQuery<UserRoleRow>;
  private readonly withSessionQuery: CompiledQuery<UserSessionRow>;
  private readonly db: Kysely<Database>;
  private onChanged: AccountChanged = () => undefined;

  constructor(private readonly database: Db) {
    this.db = database.kysely;
    this.byIdQuery = this.db
      .selectFrom('users')
      .leftJoin('user_roles', 'user_roles.user_id', 'users.id')
      .selectAll('users')
      .select('user_roles.role')
      .select((eb) => [linkCount(eb, 'google', 'google_links'), linkCount(eb, 'facebook', 'facebook_links')])
      .where('users.id', '=', '')
      .compile();
    // The same lookup with the token's session, so checking that the session is live costs no second query.
    this.withSessionQuery = this.db
      .selectFrom('users')
      .leftJoin('user_roles', 'user_roles.user_id', 'users.id')
      .leftJoin('sessions', (join) => join.onRef('sessions.user_id', '=', 'users.id').on('sessions.id', '=', ''))
      .selectAll('users')
      .select(['user_roles.role', 'sessions.id as session_id', 'sessions.expires_at as session_expires_at', 'sessions.ended_at as session_ended_at', 'sessions.last_active_at as session_last_active_at'])
      .select((eb) => [linkCount(eb, 'google', 'google_links'), linkCount(eb, 'facebook', 'facebook_links')])
      .where('users.id', '=', '')
      .compile();
  }

  /** Where changes to accounts are announced (the event bus); set once when the app is built. */
  announceChangesTo(listener: AccountChanged): void {
    this.onChanged = listener;
  }

  /**
   * The account's row, roles or links changed and the change has committed: every instance forgets the
   * signed-in user it keeps (this one before returning). `update` calls it itself; a change made in a
   * transaction calls it after the commit (an earlier call could be followed by a read of the old row).
   */
  changed(userId: string): void {
    this.onChanged(userId);
  }

  /**
   * The user with roles, and the session `sessionId` when it is theirs and live at `now` (ended or
   * expired: null). One query; ./signed-in.ts keeps its answer.
   */
  async findWithSession(id: string, sessionId: string, now: Date): Promise<{ user: UserWithRoles; session: AuthSession | null } | undefined> {
    const rows = await this.database.read(this.withSessionQuery, [sessionId, id]);
    const user = withRoles(rows);
    const row = rows[0];
    if (!user || !row) return undefined;
    const live =
      row.session_id !== null && row.session_expires_at !== null && row.session_ended_at === null && Date.parse(row.session_expires_at) > now.getTime();
    return {
      user,
      session: live ? { id: row.session_id as string, expires_at: row.session_expires_at as string, last_active_at: row.session_last_active_at as string } : null,
    };
  }

  async findById(id: string): Promise<UserWithRoles | undefined> {
    return withRoles(await this.database.read(this.byIdQuery, [id]));
  }

  async findByEmail(email: string): Promise<UserWithRoles | undefined> {
    const user = await this.db
      .selectFrom('users')
      .selectAll()
      .select((eb) => [linkCount(eb, 'google', 'google_links'), linkCount(eb, 'facebook', 'facebook_links')])
      .where('email', '=', email)
      .executeTakeFirst();
    return (
      user && {
        ...user,
        google_links: Number(user.google_links),
        facebook_links: Number(user.facebook_links),
        roles: await this.rolesOf(user.id),
      }
    );
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

  /**
   * Inserts the user and its roles in one transaction (the caller's, when it has more to commit with
   * them), and announces the sign-up (for analytics) in it. `method` is how the account signs in, for its
   * timeline: a password unless the caller names another (a Google or Facebook account has none).
   */
  async insert(user: NewUser, roles: Role[], within?: Transaction<Database>, method: string | null = user.password_hash ? 'password' : null): Promise<void> {
    const write = async (trx: Transaction<Database>) => {
      await trx.insertInto('users').values(user).execute();
      await this.recordSignup(trx, user.id, new Date(user.created_at), { source: user.signup_source ?? null, method });
      if (roles.length > 0) {
        await trx
          .insertInto('user_roles')
          .values(roles.map((role) => ({ user_id: user.id, role })))
          .execute();
      }
    };
    if (within) await write(within);
    else await this.db.transaction().execute(write);
  }

  /**
   * Announces a new account with a job in the transaction that created it; the analytics module counts
   * it from there (server/modules/analytics/jobs.ts), so an account and its count never part. The
   * account's timeline starts here too.
   */
  private async recordSignup(trx: Transaction<Database>, userId: string, at: Date, how: { source: string | null; method: string | null }): Promise<void> {
    await enqueue(trx, at, { kind: SIGNED_UP_JOB, payload: { userId, at: at.toISOString() } });
    await recordActivity(trx, { userId, kind: 'account.registered', details: how, at });
  }

  /** Deletes the user; roles, sessions and pending verifications go with it (foreign keys cascade). */
  async remove(userId: string): Promise<void> {
    await deleteAccountRow(this.db, userId);
  }

  async countWithRole(role: Role): Promise<number> {
    const row = await this.db
      .selectFrom('user_roles')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('role', '=', role)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** A proven new sign-in address (and the account verified by that proof), in the change's transaction. */
  async changeEmail(trx: Transaction<Database>, userId: string, change: { email: string; verifiedAt: string }, at: string): Promise<void> {
    await trx.updateTable('users').set({ email: change.email, email_verified_at: change.verifiedAt, updated_at: at }).where('id', '=', userId).execute();
  }

  async update(
    userId: string,
    changes: Partial<Pick<UserRow, 'first_name' | 'last_name' | 'phone' | 'newsletter' | 'language' | 'country' | 'coupon_code' | 'password_hash' | 'tokens_valid_after'>>,
    at: string,
  ): Promise<void> {
    await this.db.updateTable('users').set({ ...changes, updated_at: at }).where('id', '=', userId).execute();
    this.changed(userId);
  }
}

/*
 * Statements other modules run on the accounts, each in the caller's transaction when it passes one (a
 * Kysely transaction is a Kysely too): the account's deletion, the roles an admin changes, who to mail.
 */

/** Deletes the account's row; everything that hangs on it by a cascading foreign key goes with it. */
export async function deleteAccountRow(db: Kysely<Database>, userId: string): Promise<void> {
  await db.deleteFrom('users').where('id', '=', userId).execute();
}

/** Whether the account exists. */
export async function accountExists(db: Kysely<Database>, userId: string): Promise<boolean> {
  return (await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()) !== undefined;
}

/** When the account was registered; undefined when there is no such account. */
export async function registeredAt(db: Kysely<Database>, userId: string): Promise<string | undefined> {
  return (await db.selectFrom('users').select('created_at').where('id', '=', userId).executeTakeFirst())?.created_at;
}

/** Who to mail about an account (its address, first name and language); undefined when there is none. */
export async function recipientOf(db: Kysely<Database>, userId: string): Promise<{ email: string; first_name: string | null; language: string } | undefined> {
  return db.selectFrom('users').select(['email', 'first_name', 'language']).where('id', '=', userId).executeTakeFirst();
}

/** The sign-in addresses of the given accounts that still exist, by id (a timeline names its admins so). */
export async function emailsOf(db: Kysely<Database>, userIds: readonly string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'email']).where('id', 'in', [...userIds]).execute();
  return new Map(rows.map((row) => [row.id, row.email]));
}

/** The account's roles as stored, sorted (none for an unknown account). */
export async function rolesIn(db: Kysely<Database>, userId: string): Promise<Role[]> {
  return (await db.selectFrom('user_roles').select('role').where('user_id', '=', userId).execute()).map((row) => row.role as Role).sort();
}

/** Sets the account's roles to exactly `roles`, in the caller's transaction. */
export async function replaceRoles(trx: Transaction<Database>, userId: string, roles: Role[]): Promise<void> {
  await trx.deleteFrom('user_roles').where('user_id', '=', userId).execute();
  await trx
    .insertInto('user_roles')
    .values(roles.map((role) => ({ user_id: userId, role })))
    .execute();
}

/** How many accounts besides `except` hold the admin role (a read, no lock: the account's own deletion asks first). */
export async function countOtherAdmins(db: Kysely<Database>, except: string): Promise<number> {
  return (await db.selectFrom('user_roles').select('user_id').where('role', '=', 'admin').where('user_id', '!=', except).execute()).length;
}

/**
 * How many admins remain besides `except`, with the admin rows locked until the transaction ends on
 * PostgreSQL (SQLite runs one write transaction at a time), so two admins demoting or deleting each other
 * at once cannot leave none.
 */
export async function lockOtherAdmins(trx: Transaction<Database>, dialect: Dialect, except: string): Promise<number> {
  let query = trx.selectFrom('user_roles').select('user_id').where('role', '=', 'admin');
  if (dialect === 'postgres') query = query.forUpdate();
  return (await query.execute()).filter((row) => row.user_id !== except).length;
}
