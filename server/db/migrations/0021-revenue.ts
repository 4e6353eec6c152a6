import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../index.js';
import { timestampType } from './types.js';

/**
 * Issue 46, revenue that holds and recovers:
 * - item 1, one 14-day refund per customer and release, and one for the subscription: `refund_uses` holds
 *   the customer's use of each, its primary key the rule, so two tabs (or a retried request) asking at once
 *   get one refund between them. Refunds the customer had before are counted from `refunds`.
 * - item 5, failed renewals: `payment_recoveries` follows each renewal Paddle could not charge, from the
 *   first failure to its end (recovered, or lost when Paddle gives up), with the mails sent for it.
 * - item 6, the card expiry warning: the card of each payment (`transactions.card_*`) and the warnings sent,
 *   one per customer and card (`card_expiry_warnings`).
 * - item 7, Paddle's scheduled pause: when a subscription was paused and when it resumes by itself.
 * - item 8, why customers leave: `cancellations`, one row per cancellation with its reason.
 * - item 9, chargebacks: `chargebacks`, one row per Paddle adjustment, and whether the bank reversed it.
 */
export function revenue(dialect: Dialect): Migration {
  const ts = timestampType(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('refund_uses')
        .addColumn('user_id', 'text', (c) => c.notNull())
        /** 'subscription', or 'release:<release>' (e.g. 'release:2025'). */
        .addColumn('scope', 'text', (c) => c.notNull())
        /** A payment of the refund that used it (the first one, for a subscription's several). */
        .addColumn('transaction_id', 'text', (c) => c.notNull())
        /** 'customer', 'admin' (an admin refunded on the customer's behalf), 'chargeback' (the bank took it back) or 'before' (earlier refunds). */
        .addColumn('used_by', 'text', (c) => c.notNull())
        .addColumn('used_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('refund_uses_pk', ['user_id', 'scope'])
        .execute();
      // The customer's refunds before this rule: each subscription refunded counts for 'subscription', each
      // licence returned for its release. A duplicate purchase undone by the portal was never the customer's.
      await sql`
        insert into refund_uses (user_id, scope, transaction_id, used_by, used_at)
        select user_id, case when subscription_id is not null then 'subscription' else 'release:' || release end, min(transaction_id), 'before', min(created_at)
        from refunds
        where reason = 'customer' and user_id is not null and (subscription_id is not null or release is not null)
        group by user_id, case when subscription_id is not null then 'subscription' else 'release:' || release end
        on conflict do nothing
      `.execute(db);

      await db.schema
        .createTable('payment_recoveries')
        /** The renewal's transaction, past due. */
        .addColumn('transaction_id', 'text', (c) => c.primaryKey())
        .addColumn('subscription_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text')
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('currency_code', 'text', (c) => c.notNull())
        /** The first failed attempt: Paddle's retry schedule counts from it. */
        .addColumn('started_at', ts, (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('last_failed_at', ts, (c) => c.notNull())
        .addColumn('first_mail_at', ts)
        .addColumn('final_mail_at', ts)
        /** 'open' while Paddle retries, then 'recovered' (paid) or 'lost' (Paddle gave up, or it ended otherwise). */
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('ended_at', ts)
        .execute();
      await db.schema.createIndex('payment_recoveries_user_idx').on('payment_recoveries').columns(['user_id', 'outcome']).execute();
      await db.schema.createIndex('payment_recoveries_subscription_idx').on('payment_recoveries').columns(['subscription_id', 'outcome']).execute();
      await db.schema.createIndex('payment_recoveries_ended_idx').on('payment_recoveries').columns(['ended_at']).execute();

      await db.schema.alterTable('transactions').addColumn('card_last4', 'text').execute();
      await db.schema.alterTable('transactions').addColumn('card_expiry_month', 'integer').execute();
      await db.schema.alterTable('transactions').addColumn('card_expiry_year', 'integer').execute();
      await db.schema
        .createTable('card_expiry_warnings')
        .addColumn('user_id', 'text', (c) => c.notNull())
        /** '<last4>|<yyyy>-<mm>': the card as the customer knows it. */
        .addColumn('card', 'text', (c) => c.notNull())
        .addColumn('warned_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('card_expiry_warnings_pk', ['user_id', 'card'])
        .execute();

      await db.schema.alterTable('subscriptions').addColumn('paused_at', ts).execute();
      /** Paddle's `scheduled_change.resume_at`: when a scheduled (or running) pause ends by itself. */
      await db.schema.alterTable('subscriptions').addColumn('scheduled_resume_at', ts).execute();

      await db.schema
        .createTable('cancellations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('subscription_id', 'text', (c) => c.notNull())
        /** One of contract/subscription.ts CANCEL_REASONS, or null when none was given (an admin's cancellation). */
        .addColumn('reason', 'text')
        .addColumn('comment', 'text')
        .addColumn('refund', 'integer', (c) => c.notNull())
        .addColumn('actor_id', 'text')
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('cancellations_created_idx').on('cancellations').columns(['created_at']).execute();

      await db.schema
        .createTable('chargebacks')
        /** Paddle's adjustment (action `chargeback`). */
        .addColumn('adjustment_id', 'text', (c) => c.primaryKey())
        .addColumn('transaction_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text')
        .addColumn('subscription_id', 'text')
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('currency_code', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        /** Set by Paddle's `chargeback_reverse`: the bank gave the money back. */
        .addColumn('reversed_at', ts)
        .execute();
      await db.schema.createIndex('chargebacks_user_idx').on('chargebacks').columns(['user_id']).execute();
      await db.schema.createIndex('chargebacks_transaction_idx').on('chargebacks').columns(['transaction_id']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('chargebacks').execute();
      await db.schema.dropTable('cancellations').execute();
      await db.schema.alterTable('subscriptions').dropColumn('scheduled_resume_at').execute();
      await db.schema.alterTable('subscriptions').dropColumn('paused_at').execute();
      await db.schema.dropTable('card_expiry_warnings').execute();
      await db.schema.alterTable('transactions').dropColumn('card_expiry_year').execute();
      await db.schema.alterTable('transactions').dropColumn('card_expiry_month').execute();
      await db.schema.alterTable('transactions').dropColumn('card_last4').execute();
      await db.schema.dropTable('payment_recoveries').execute();
      await db.schema.dropTable('refund_uses').execute();
    },
  };
}
