import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * What billing keeps about one account, for the modules that show or remove an account whole: the data
 * export and the account's deletion (privacy), the admin user page (admin-users). They ask here instead of
 * reading billing's tables.
 */

/** The account's Paddle customer id, or null when it never bought anything. */
export async function customerIdOf(db: Kysely<Database>, userId: string): Promise<string | null> {
  const row = await db.selectFrom('billing_customers').select('provider_customer_id').where('user_id', '=', userId).executeTakeFirst();
  return row?.provider_customer_id ?? null;
}

/** Every billing row of the account as stored (the data export, issue 17; GDPR article 20). */
export async function billingRecordsOf(db: Kysely<Database>, userId: string) {
  const [customerId, subscriptions, transactions, refunds] = await Promise.all([
    customerIdOf(db, userId),
    db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).execute(),
    db.selectFrom('transactions').selectAll().where('user_id', '=', userId).execute(),
    db.selectFrom('refunds').select(['transaction_id', 'reason', 'status', 'amount', 'currency_code', 'created_at']).where('user_id', '=', userId).execute(),
  ]);
  return { customerId, subscriptions, transactions, refunds };
}

/** The account's payments as support lists them: newest first (ties by id), at most 200. */
export async function paymentsForSupport(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('transactions')
    .select(['id', 'status', 'origin', 'subscription_id', 'billed_at', 'created_at', 'grand_total', 'currency_code', 'refund_status'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(200)
    .execute();
}

/** Whether the payment is this account's in the portal's books. */
export async function isPaymentOf(db: Kysely<Database>, userId: string, transactionId: string): Promise<boolean> {
  return (await db.selectFrom('transactions').select('id').where('id', '=', transactionId).where('user_id', '=', userId).executeTakeFirst()) !== undefined;
}
