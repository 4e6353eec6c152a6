import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database, TransactionsTable } from '../../db/schema.js';

/**
 * The transactions table's SQL: the local copy of each Paddle payment (the newer description wins) and
 * the state of its refund (`refund_status`), which only moves forward.
 */

type Db = Kysely<Database>;

/** Writes a payment as Paddle described it at `last_event_at`, unless a newer description was written already. */
export async function upsertTransaction(db: Db, row: Insertable<TransactionsTable>): Promise<void> {
  const { id: _id, created_at: _created, ...changes } = row;
  await db
    .insertInto('transactions')
    .values(row)
    .onConflict((oc) => oc.column('id').doUpdateSet(changes).where('transactions.last_event_at', '<=', sql<string>`excluded.last_event_at`))
    .execute();
}

/** A completed payment of a subscription: how much, in what, when, and its refund's state. */
export interface SubscriptionPayment {
  id: string;
  grand_total: number | string;
  currency_code: string;
  billed_at: string | null;
  created_at: string;
  refund_status: string | null;
}

/**
 * The completed payments of a subscription; with `paid`, only those that charged something, with
 * `unrefunded`, only those the portal has not asked to refund.
 */
export async function completedPaymentsOf(db: Db, subscriptionId: string, only: { paid?: boolean; unrefunded?: boolean } = {}): Promise<SubscriptionPayment[]> {
  let query = db
    .selectFrom('transactions')
    .select(['id', 'grand_total', 'currency_code', 'billed_at', 'created_at', 'refund_status'])
    .where('subscription_id', '=', subscriptionId)
    .where('status', '=', 'completed');
  if (only.paid) query = query.where('grand_total', '>', 0);
  if (only.unrefunded) query = query.where('refund_status', 'is', null);
  return query.execute();
}

/** What a purchased licence shows of the payment that bought it: the amount, when, and its refund's state. */
export interface LicencePayment {
  grand_total: number | string;
  currency_code: string;
  billed_at: string | null;
  refund_status: string | null;
}

/** The payments `transactionIds`, by id (a missing one is absent). */
export async function paymentsById(db: Db, transactionIds: string[]): Promise<Map<string, LicencePayment>> {
  if (transactionIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('transactions')
    .select(['id', 'grand_total', 'currency_code', 'billed_at', 'refund_status'])
    .where('id', 'in', transactionIds)
    .execute();
  return new Map(rows.map(({ id, ...payment }) => [id, payment]));
}

/** Marks a payment's refund as asked for (the portal recorded one). */
export async function markRefundPending(db: Db, transactionId: string): Promise<void> {
  await db.updateTable('transactions').set({ refund_status: 'pending' }).where('id', '=', transactionId).execute();
}

/**
 * The payment's refund state follows Paddle's adjustment, only forward: a final state ('approved',
 * 'rejected') replaces none or 'pending', 'pending' replaces only none.
 */
export async function advanceRefundStatus(db: Db, transactionId: string, state: 'pending' | 'approved' | 'rejected'): Promise<void> {
  const final = state !== 'pending';
  await db
    .updateTable('transactions')
    .set({ refund_status: state })
    .where('id', '=', transactionId)
    .where((eb) => (final ? eb.or([eb('refund_status', 'is', null), eb('refund_status', '=', 'pending')]) : eb('refund_status', 'is', null)))
    .execute();
}

/** The user who made the payment, or null (unknown payment, or a customer of no user). */
export async function payerOf(db: Db, transactionId: string): Promise<string | null> {
  const owner = await db.selectFrom('transactions').select('user_id').where('id', '=', transactionId).executeTakeFirst();
  return owner?.user_id ?? null;
}

/** The payments `transactionIds` with the portal's refund of each (if any): what the invoice list shows of refunds. */
export async function paymentsWithRefunds(db: Db, transactionIds: string[]) {
  return db
    .selectFrom('transactions')
    .leftJoin('refunds', 'refunds.transaction_id', 'transactions.id')
    .select(['transactions.id', 'transactions.refund_status', 'transactions.grand_total', 'refunds.reason', 'refunds.status', 'refunds.amount'])
    .where('transactions.id', 'in', transactionIds)
    .execute();
}

/**
 * The card a subscription is charged on (issue 46 item 6): the card of its latest completed payment that
 * was made by card (a $0.00 card update counts: it saved the card), or undefined.
 */
export async function savedCardOf(db: Db, subscriptionId: string): Promise<{ last4: string; month: number; year: number } | undefined> {
  const row = await db
    .selectFrom('transactions')
    .select(['card_last4', 'card_expiry_month', 'card_expiry_year'])
    .where('subscription_id', '=', subscriptionId)
    .where('status', '=', 'completed')
    .where('card_last4', 'is not', null)
    .orderBy('billed_at', 'desc')
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (!row?.card_last4 || row.card_expiry_month === null || row.card_expiry_year === null) return undefined;
  return { last4: row.card_last4, month: Number(row.card_expiry_month), year: Number(row.card_expiry_year) };
}

/** A payment as the portal recorded it: whose, of what, how much (a chargeback's subject, issue 46 item 9). */
export async function paymentOf(db: Db, transactionId: string) {
  return db
    .selectFrom('transactions')
    .select(['id', 'user_id', 'subscription_id', 'status', 'grand_total', 'currency_code'])
    .where('id', '=', transactionId)
    .executeTakeFirst();
}
