import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, RefundsTable } from '../../db/schema.js';

/**
 * The refunds table's SQL: one refund per payment (unique on transaction_id), recorded in the transaction
 * that decided it and carried out by the refund runner's jobs. Its state moves forward only: pending, then
 * requested at Paddle, then approved or rejected (or failed after the last try); each move is conditional
 * on the state it leaves, so two instances (or a job and a webhook) never move it twice.
 */

type Db = Kysely<Database>;
type RefundState = RefundsTable['status'];

/** Records the refund unless the payment has one already; whether this call recorded it. */
export async function insertRefund(db: Db, refund: Insertable<RefundsTable>): Promise<boolean> {
  const result = await db
    .insertInto('refunds')
    .values(refund)
    .onConflict((oc) => oc.column('transaction_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** The refund of a payment, if the portal recorded one (or Paddle's adjustment reached it). */
export async function refundOfPayment(db: Db, transactionId: string): Promise<{ id: string; status: RefundState; mailed_at: string | null } | undefined> {
  return db.selectFrom('refunds').select(['id', 'status', 'mailed_at']).where('transaction_id', '=', transactionId).executeTakeFirst();
}

/** The refunds of these payments' ids. */
export async function refundIdsOf(db: Db, transactionIds: string[]): Promise<{ id: string }[]> {
  return db.selectFrom('refunds').select('id').where('transaction_id', 'in', transactionIds.length > 0 ? transactionIds : ['']).execute();
}

/**
 * Paddle's adjustment decides the refund's state, only forward: a final state ('approved', 'rejected')
 * replaces any other, 'requested' replaces only 'pending', 'requested' or 'failed'.
 */
export async function followAdjustment(db: Db, transactionId: string, change: { state: 'requested' | 'approved' | 'rejected'; adjustmentId: string }): Promise<void> {
  const final = change.state === 'approved' || change.state === 'rejected';
  await db
    .updateTable('refunds')
    .set({ status: change.state, adjustment_id: change.adjustmentId })
    .where('transaction_id', '=', transactionId)
    .where((eb) => (final ? eb('status', 'not in', ['approved', 'rejected']) : eb('status', 'in', ['pending', 'requested', 'failed'])))
    .execute();
}

/** The refund `refundId` while it is still to be asked of Paddle. */
export async function pendingRefund(db: Db, refundId: string): Promise<Selectable<RefundsTable> | undefined> {
  return db.selectFrom('refunds').selectAll().where('id', '=', refundId).where('status', '=', 'pending').executeTakeFirst();
}

/** Paddle has the refund (`adjustmentId`): pending becomes requested. Whether this call moved it. */
export async function markRequested(db: Db, refundId: string, change: { adjustmentId: string; attempts: number; at: string }): Promise<boolean> {
  const moved = await db
    .updateTable('refunds')
    .set({ status: 'requested', adjustment_id: change.adjustmentId, attempts: change.attempts, last_error: null, updated_at: change.at })
    .where('id', '=', refundId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) === 1;
}

/** A try that failed: counted, with its error, and the refund kept pending (or failed, after the last try). */
export async function recordAttemptFailed(db: Db, refundId: string, failure: { status: 'pending' | 'failed'; attempts: number; lastError: string; at: string }): Promise<void> {
  await db
    .updateTable('refunds')
    .set({ status: failure.status, attempts: failure.attempts, last_error: failure.lastError, updated_at: failure.at })
    .where('id', '=', refundId)
    .where('status', '=', 'pending')
    .execute();
}

/** What the customer's refund mail says and to whom, while the refund is at Paddle and not yet mailed. */
export async function refundToMail(db: Db, refundId: string) {
  return db
    .selectFrom('refunds')
    .select(['id', 'user_id', 'reason', 'amount', 'currency_code', 'subscription_id', 'release'])
    .where('id', '=', refundId)
    .where('mailed_at', 'is', null)
    .where('status', 'in', ['requested', 'approved'])
    .executeTakeFirst();
}

export async function markMailed(db: Db, refundId: string, at: string): Promise<void> {
  await db.updateTable('refunds').set({ mailed_at: at }).where('id', '=', refundId).execute();
}
