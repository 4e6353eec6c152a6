import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../index.js';
import { timestampType } from './types.js';

/**
 * Payments as Paddle reports them (`transaction.*` webhooks): what was bought, for how much in minor
 * units, and when. Kept when a user is deleted (detached from them) because the business must keep them.
 */
export function transactions(dialect: Dialect): Migration {
  const ts = timestampType(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('transactions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('customer_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('subscription_id', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('origin', 'text', (c) => c.notNull())
        .addColumn('currency_code', 'text', (c) => c.notNull())
        .addColumn('subtotal', 'bigint', (c) => c.notNull())
        .addColumn('discount', 'bigint', (c) => c.notNull())
        .addColumn('tax', 'bigint', (c) => c.notNull())
        .addColumn('grand_total', 'bigint', (c) => c.notNull())
        .addColumn('billed_at', ts)
        /** JSON: [{ priceId, productId, quantity }] */
        .addColumn('items', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('last_event_at', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('transactions_user_idx').on('transactions').columns(['user_id', 'created_at']).execute();
      await db.schema.createIndex('transactions_customer_idx').on('transactions').column('customer_id').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('transactions').execute();
    },
  };
}
