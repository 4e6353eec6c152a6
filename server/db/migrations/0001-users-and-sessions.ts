import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../index.js';
import { timestampType } from './types.js';

export function usersAndSessions(dialect: Dialect): Migration {
  const ts = timestampType(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text')
        .addColumn('first_name', 'text')
        .addColumn('last_name', 'text')
        .addColumn('email_verified_at', ts)
        .addColumn('signup_source', 'text')
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('user_roles')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('user', 'admin')`))
        .addPrimaryKeyConstraint('user_roles_pk', ['user_id', 'role'])
        .execute();
      await db.schema.createIndex('user_roles_role_idx').on('user_roles').columns(['role', 'user_id']).execute();

      await db.schema
        .createTable('refresh_tokens')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('family_id', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('expires_at', ts, (c) => c.notNull())
        .addColumn('rotated_at', ts)
        .addColumn('revoked_at', ts)
        .execute();
      await db.schema.createIndex('refresh_tokens_family_idx').on('refresh_tokens').column('family_id').execute();
      await db.schema.createIndex('refresh_tokens_user_idx').on('refresh_tokens').column('user_id').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('refresh_tokens').execute();
      await db.schema.dropTable('user_roles').execute();
      await db.schema.dropTable('users').execute();
    },
  };
}
