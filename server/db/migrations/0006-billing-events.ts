import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../index.js';
import { timestampType } from './types.js';

/**
 * Paddle webhooks: every event once (keyed on Paddle's event_id), and the local copy of each subscription,
 * stamped with the occurred_at of the event that last changed it so an older event never overwrites it.
 */
export function billingEvents(dialect: Dialect): Migration {
  const ts = timestampType(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('webhook_events')
        .addColumn('event_id', 'text', (c) => c.primaryKey())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('occurred_at', ts, (c) => c.notNull())
        .addColumn('received_at', ts, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('subscriptions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('customer_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('price_id', 'text', (c) => c.notNull())
        .addColumn('billing_interval', 'text', (c) => c.notNull())
        .addColumn('currency_code', 'text', (c) => c.notNull())
        .addColumn('current_period_starts_at', ts)
        .addColumn('current_period_ends_at', ts)
        .addColumn('next_billed_at', ts)
        .addColumn('trial_ends_at', ts)
        .addColumn('scheduled_change_action', 'text')
        .addColumn('scheduled_change_at', ts)
        .addColumn('canceled_at', ts)
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('last_event_at', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('subscriptions_user_idx').on('subscriptions').columns(['user_id', 'created_at']).execute();
      await db.schema.createIndex('subscriptions_customer_idx').on('subscriptions').column('customer_id').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('subscriptions').execute();
      await db.schema.dropTable('webhook_events').execute();
    },
  };
}
