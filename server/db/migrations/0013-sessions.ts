import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../index.js';
import { timestampType } from './types.js';

/**
 * Server-side sessions (issue 17): every sign-in is a row; access tokens carry its id (`sid`) and are
 * refused once it has ended or passed its absolute expiry, checked in the query that loads the user.
 * The browser and system are parsed from the user agent at sign-in, for the user's list of sessions.
 * Offline ("remember me") tokens belong to their session and end with it.
 */
export function sessions(dialect: Dialect): Migration {
  const ts = timestampType(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        /** 'password' | 'code' | 'google' | 'facebook' | 'admin' */
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('remember', 'integer', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('last_active_at', ts, (c) => c.notNull())
        /** Absolute: no renewal goes past it (12 hours, or 30 days with "remember me"). */
        .addColumn('expires_at', ts, (c) => c.notNull())
        .addColumn('ended_at', ts)
        .addColumn('ended_reason', 'text')
        .addColumn('browser', 'text')
        .addColumn('os', 'text')
        .addColumn('address', 'text')
        .execute();
      await db.schema.createIndex('sessions_user_idx').on('sessions').columns(['user_id', 'created_at']).execute();
      await db.schema.alterTable('refresh_tokens').addColumn('session_id', 'text').execute();
      await db.schema.createIndex('refresh_tokens_session_idx').on('refresh_tokens').column('session_id').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('refresh_tokens_session_idx').execute();
      await db.schema.alterTable('refresh_tokens').dropColumn('session_id').execute();
      await db.schema.dropTable('sessions').execute();
    },
  };
}
