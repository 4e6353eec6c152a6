import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../index.js';
import { timestampType } from './types.js';

/**
 * Accounts: profile fields, the verification code and link of a new account, password-reset links,
 * the development outbox, and counters for throttling guesses per account or address.
 * Codes and tokens are stored only as SHA-256 digests.
 */
export function accounts(dialect: Dialect): Migration {
  const ts = timestampType(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('users').addColumn('phone', 'text').execute();
      await db.schema.alterTable('users').addColumn('newsletter', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('users').addColumn('language', 'text', (c) => c.notNull().defaultTo('en')).execute();
      await db.schema.alterTable('users').addColumn('coupon_code', 'text').execute();
      // Access tokens issued before this moment are refused (password change or reset ends other sessions).
      await db.schema.alterTable('users').addColumn('tokens_valid_after', ts).execute();

      await db.schema
        .createTable('email_verifications')
        .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('link_hash', 'text', (c) => c.notNull().unique())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('expires_at', ts, (c) => c.notNull())
        // Kept after use so a second click on the link says 'already verified'.
        .addColumn('used_at', ts)
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('password_resets')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('expires_at', ts, (c) => c.notNull())
        .addColumn('used_at', ts)
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('password_resets_user_idx').on('password_resets').column('user_id').execute();

      await db.schema
        .createTable('outbox')
        // A sequence, so "newest first" holds even for mails written within one clock tick.
        .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('to_address', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('html', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('outbox_to_idx').on('outbox').columns(['to_address', 'created_at']).execute();

      await db.schema
        .createTable('throttles')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addColumn('window_ends_at', ts, (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['throttles', 'outbox', 'password_resets', 'email_verifications']) {
        await db.schema.dropTable(table).execute();
      }
      for (const column of ['tokens_valid_after', 'coupon_code', 'language', 'newsletter', 'phone']) {
        await db.schema.alterTable('users').dropColumn(column).execute();
      }
    },
  };
}
