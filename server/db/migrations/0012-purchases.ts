import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../index.js';
import { timestampType } from './types.js';

/**
 * Money that moves once (issue 16):
 * - `checkouts`: the open Paddle transaction per user and purchase, so a second checkout for the same
 *   thing answers the open transaction instead of creating another. The row is claimed first (primary
 *   key), then filled with the transaction id: two requests at once cannot both create one.
 * - `refunds`: every refund the portal asks Paddle for, one per transaction (unique), written in the same
 *   database transaction as the decision (a duplicate found by a webhook, a customer's cancel or return),
 *   then carried out by the refund runner: cancel the subscription at once when asked, create the full
 *   refund adjustment, mail the customer. Its state follows Paddle's `adjustment.*` webhooks.
 * - `licences.revoked_at`: a returned or undone licence stays for the books but entitles nothing; at most
 *   one live full licence per user and release (a partial unique index decides, whatever the dialect).
 * - `subscriptions.duplicate_of`: a subscription bought while another was live, being undone.
 */
export function purchases(dialect: Dialect): Migration {
  const ts = timestampType(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('checkouts')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        /** What is being bought and how: kind, price, discount, trial (see billing/checkout.ts). */
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        /** Null while the request that claimed the row is creating the transaction at Paddle. */
        .addColumn('transaction_id', 'text')
        .addColumn('claimed_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('checkouts_pk', ['user_id', 'fingerprint'])
        .execute();

      await db.schema
        .createTable('refunds')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('transaction_id', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
        /** 'duplicate' (undone by the portal) | 'customer' (cancel or return within 14 days) */
        .addColumn('reason', 'text', (c) => c.notNull())
        /** The subscription to cancel at once before refunding, when the refund ends one. */
        .addColumn('subscription_id', 'text')
        .addColumn('licence_id', 'text')
        .addColumn('release', 'text')
        /** 'pending' (to ask Paddle) | 'requested' (adjustment created) | 'approved' | 'rejected' | 'failed' */
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('adjustment_id', 'text')
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('currency_code', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_error', 'text')
        .addColumn('mailed_at', ts)
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('refunds_status_idx').on('refunds').columns(['status', 'created_at']).execute();
      await db.schema.createIndex('refunds_user_idx').on('refunds').column('user_id').execute();

      await db.schema.alterTable('licences').addColumn('revoked_at', ts).execute();
      await db.schema.alterTable('licences').addColumn('revoked_reason', 'text').execute();
      // Duplicates bought before this rule existed: the earliest grant of a release stays live.
      await sql`update licences set revoked_at = granted_at, revoked_reason = 'duplicate'
        where edition = 'full' and user_id is not null and release is not null and exists (
          select 1 from licences earlier
          where earlier.user_id = licences.user_id and earlier.release = licences.release and earlier.edition = 'full'
            and (earlier.granted_at < licences.granted_at or (earlier.granted_at = licences.granted_at and earlier.id < licences.id)))`.execute(db);
      await sql`create unique index licences_live_release_uq on licences (user_id, release)
        where edition = 'full' and revoked_at is null and user_id is not null and release is not null`.execute(db);

      await db.schema.alterTable('subscriptions').addColumn('duplicate_of', 'text').execute();
      await db.schema.alterTable('transactions').addColumn('refund_status', 'text').execute();
      await db.schema.createIndex('transactions_subscription_idx').on('transactions').column('subscription_id').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('transactions_subscription_idx').execute();
      await db.schema.alterTable('transactions').dropColumn('refund_status').execute();
      await db.schema.alterTable('subscriptions').dropColumn('duplicate_of').execute();
      await db.schema.dropIndex('licences_live_release_uq').execute();
      await db.schema.alterTable('licences').dropColumn('revoked_reason').execute();
      await db.schema.alterTable('licences').dropColumn('revoked_at').execute();
      await db.schema.dropTable('refunds').execute();
      await db.schema.dropTable('checkouts').execute();
    },
  };
}
