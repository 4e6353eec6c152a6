import type { Insertable, Kysely } from 'kysely';
import type { Database, PaymentRecoveriesTable } from '../../db/schema.js';

/**
 * The payment_recoveries table's SQL (issue 46 item 5): one row per renewal Paddle could not charge, keyed
 * by its transaction. It is opened once (the first failure's webhook inserts it; a repeat or a late one
 * finds it), counts Paddle's tries forward only, and ends once, open -> recovered or lost, by a
 * conditional update: webhooks arriving twice, late or out of order move it at most once.
 */

type Db = Kysely<Database>;
type Outcome = PaymentRecoveriesTable['outcome'];

/** Opens the recovery of a failed renewal unless it is known already; whether this call opened it. */
export async function openRecovery(db: Db, row: Insertable<PaymentRecoveriesTable>): Promise<boolean> {
  const result = await db
    .insertInto('payment_recoveries')
    .values(row)
    .onConflict((oc) => oc.column('transaction_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Paddle tried again and failed: the count only grows (an older webhook arriving late changes nothing). */
export async function countFailedAttempts(db: Db, transactionId: string, attempts: number, lastFailedAt: string): Promise<void> {
  await db
    .updateTable('payment_recoveries')
    .set({ attempts, last_failed_at: lastFailedAt })
    .where('transaction_id', '=', transactionId)
    .where('outcome', '=', 'open')
    .where('attempts', '<', attempts)
    .execute();
}

/** Ends an open recovery (paid: recovered; given up: lost); whether this call ended it. */
export async function endRecovery(db: Db, transactionId: string, outcome: Exclude<Outcome, 'open'>, at: string): Promise<boolean> {
  const result = await db
    .updateTable('payment_recoveries')
    .set({ outcome, ended_at: at })
    .where('transaction_id', '=', transactionId)
    .where('outcome', '=', 'open')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Ends every open recovery of a subscription (it was cancelled); the transactions ended. */
export async function endRecoveriesOf(db: Db, subscriptionId: string, outcome: Exclude<Outcome, 'open'>, at: string): Promise<string[]> {
  const open = await db.selectFrom('payment_recoveries').select('transaction_id').where('subscription_id', '=', subscriptionId).where('outcome', '=', 'open').execute();
  const ended: string[] = [];
  for (const { transaction_id: id } of open) if (await endRecovery(db, id, outcome, at)) ended.push(id);
  return ended;
}

/** The open recovery of a subscription (at most one renewal is past due at a time), or undefined. */
export async function openRecoveryOf(db: Db, subscriptionId: string) {
  return db
    .selectFrom('payment_recoveries')
    .select(['transaction_id', 'amount', 'currency_code', 'started_at', 'attempts'])
    .where('subscription_id', '=', subscriptionId)
    .where('outcome', '=', 'open')
    .orderBy('started_at', 'desc')
    .executeTakeFirst();
}

/** A recovery still open, with what its mails say, to be mailed now (its notice not sent yet). */
export async function recoveryToMail(db: Db, transactionId: string, notice: 'first' | 'final') {
  return db
    .selectFrom('payment_recoveries')
    .select(['transaction_id', 'subscription_id', 'user_id', 'amount', 'currency_code', 'started_at'])
    .where('transaction_id', '=', transactionId)
    .where('outcome', '=', 'open')
    .where(notice === 'first' ? 'first_mail_at' : 'final_mail_at', 'is', null)
    .executeTakeFirst();
}

/** Marks a notice sent, once: whether this call marked it. */
export async function markNoticeMailed(db: Db, transactionId: string, notice: 'first' | 'final', at: string): Promise<boolean> {
  const column = notice === 'first' ? 'first_mail_at' : 'final_mail_at';
  const result = await db
    .updateTable('payment_recoveries')
    .set(notice === 'first' ? { first_mail_at: at } : { final_mail_at: at })
    .where('transaction_id', '=', transactionId)
    .where('outcome', '=', 'open')
    .where(column, 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The recoveries of a user (newest first), for support. */
export async function recoveriesOfUser(db: Db, userId: string) {
  return db
    .selectFrom('payment_recoveries')
    .select(['transaction_id', 'subscription_id', 'amount', 'currency_code', 'started_at', 'attempts', 'outcome', 'ended_at'])
    .where('user_id', '=', userId)
    .orderBy('started_at', 'desc')
    .limit(20)
    .execute();
}

/** Recoveries that ended in [from, to): each with its outcome and when, for the monthly counts. */
export async function recoveriesEndedBetween(db: Db, from: string, to: string) {
  return db
    .selectFrom('payment_recoveries')
    .select(['outcome', 'ended_at'])
    .where('outcome', '!=', 'open')
    .where('ended_at', '>=', from)
    .where('ended_at', '<', to)
    .execute();
}
