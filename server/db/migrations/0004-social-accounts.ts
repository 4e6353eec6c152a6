import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../index.js';
import { timestampType } from './types.js';

/**
 * Google and Facebook sign-in: accounts keyed on (provider, subject), never on email; and the pending
 * authorization requests (state, PKCE verifier, nonce), stored by the digest of their state, single use.
 */
export function socialAccounts(dialect: Dialect): Migration {
  const ts = timestampType(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('social_accounts')
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('email', 'text')
        .addColumn('created_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('social_accounts_pk', ['provider', 'subject'])
        // One Google and one Facebook account per user.
        .addUniqueConstraint('social_accounts_user_provider_unique', ['user_id', 'provider'])
        .execute();

      await db.schema
        .createTable('oauth_requests')
        .addColumn('state_hash', 'text', (c) => c.primaryKey())
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('redirect_url', 'text', (c) => c.notNull())
        .addColumn('code_verifier', 'text', (c) => c.notNull())
        .addColumn('nonce', 'text')
        .addColumn('expires_at', ts, (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('oauth_requests').execute();
      await db.schema.dropTable('social_accounts').execute();
    },
  };
}
