import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../index.js';
import { timestampType } from './types.js';

/**
 * What purchases entitle a user to (licences, coupon access), the devices holding their seats, coupons,
 * Shapelab Lite keys, releases and downloads, and the raw desktop reports analytics reads.
 *
 * Seats are numbered per user (`slot`); a seat can only take a slot below the user's limit, and
 * (user_id, slot) is unique, so concurrent activations can never exceed the limit whatever the dialect.
 */
export function licensing(dialect: Dialect): Migration {
  const ts = timestampType(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('users').addColumn('last_launched_at', ts).execute();
      await db.schema.alterTable('users').addColumn('downloaded_at', ts).execute();

      await db.schema
        .createTable('licences')
        .addColumn('id', 'text', (c) => c.primaryKey())
        // Kept (detached) when the user is deleted: the business must keep what was sold.
        .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
        /** 'purchase' | 'coupon' | 'lite-key' */
        .addColumn('source', 'text', (c) => c.notNull())
        /** 'full' | 'lite' */
        .addColumn('edition', 'text', (c) => c.notNull())
        /** Where it came from: 'paddle', 'coupon', or a Lite key's store channel. */
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('release', 'text')
        .addColumn('updates_until', ts)
        .addColumn('transaction_id', 'text')
        .addColumn('product_id', 'text')
        .addColumn('price_id', 'text')
        .addColumn('source_ref', 'text')
        .addColumn('granted_at', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('licences_user_idx').on('licences').column('user_id').execute();
      // One licence per product bought in one transaction, however often the webhook arrives.
      await db.schema.createIndex('licences_purchase_uq').unique().on('licences').columns(['transaction_id', 'product_id']).execute();

      await db.schema
        .createTable('access_passes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('source_ref', 'text', (c) => c.notNull())
        .addColumn('starts_at', ts, (c) => c.notNull())
        .addColumn('ends_at', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('access_passes_user_idx').on('access_passes').columns(['user_id', 'ends_at']).execute();

      await db.schema
        .createTable('seats')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('slot', 'integer', (c) => c.notNull())
        .addColumn('computer_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        /** SHA-256 of the device token; the token itself is never stored. */
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('activated_at', ts, (c) => c.notNull())
        .addColumn('last_login_at', ts)
        .addUniqueConstraint('seats_user_slot_uq', ['user_id', 'slot'])
        .addUniqueConstraint('seats_user_computer_uq', ['user_id', 'computer_id'])
        .execute();

      await db.schema
        .createTable('coupons')
        .addColumn('code', 'text', (c) => c.primaryKey())
        /** 'licence' | 'access' */
        .addColumn('grant_kind', 'text', (c) => c.notNull())
        .addColumn('release', 'text')
        .addColumn('access_days', 'integer')
        .addColumn('usage_limit', 'integer')
        .addColumn('redeemed_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('expires_at', ts)
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('created_by', 'text')
        .execute();
      await db.schema
        .createTable('coupon_redemptions')
        .addColumn('code', 'text', (c) => c.notNull().references('coupons.code').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('redeemed_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('coupon_redemptions_pk', ['code', 'user_id'])
        .execute();

      await db.schema
        .createTable('lite_keys')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('imported_at', ts, (c) => c.notNull())
        .addColumn('claimed_by', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('claimed_at', ts)
        .execute();
      await db.schema.createIndex('lite_keys_unused_idx').on('lite_keys').columns(['claimed_at', 'imported_at']).execute();

      await db.schema
        .createTable('releases')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('release', 'text', (c) => c.notNull())
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('platform', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('published_at', ts, (c) => c.notNull())
        .addUniqueConstraint('releases_version_platform_uq', ['version', 'platform'])
        .execute();
      await db.schema.createIndex('releases_platform_idx').on('releases').columns(['platform', 'published_at']).execute();

      await db.schema
        .createTable('downloads')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('release_id', 'text')
        .addColumn('platform', 'text')
        .addColumn('downloaded_at', ts, (c) => c.notNull())
        .execute();

      // Raw desktop reports; the issue "Usage analytics" rolls them up. Idempotent on (user, client id).
      await db.schema
        .createTable('analytics_sessions')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('seat_id', 'text')
        .addColumn('started_at', ts, (c) => c.notNull())
        .addColumn('ended_at', ts, (c) => c.notNull())
        .addColumn('length_seconds', 'integer', (c) => c.notNull())
        .addColumn('suspicious', 'integer', (c) => c.notNull())
        .addColumn('received_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('analytics_sessions_pk', ['user_id', 'id'])
        .execute();
      await db.schema
        .createTable('analytics_exports')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('format', 'text', (c) => c.notNull())
        .addColumn('exported_at', ts, (c) => c.notNull())
        .addColumn('received_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('analytics_exports_pk', ['user_id', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['analytics_exports', 'analytics_sessions', 'downloads', 'releases', 'lite_keys', 'coupon_redemptions', 'coupons', 'seats', 'access_passes', 'licences']) {
        await db.schema.dropTable(table).execute();
      }
      await db.schema.alterTable('users').dropColumn('downloaded_at').execute();
      await db.schema.alterTable('users').dropColumn('last_launched_at').execute();
    },
  };
}
