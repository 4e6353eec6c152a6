import type { Kysely, Selectable } from 'kysely';
import type { CheckoutsTable, Database } from '../../db/schema.js';

/**
 * The checkouts table's SQL: the open Paddle transaction of each purchase a user started, keyed by (user,
 * fingerprint). A request claims the row before it calls Paddle; every later change is conditional on
 * what the row held when it was read, so of two requests only one creates or replaces a transaction.
 */

type Db = Kysely<Database>;

/** Claims the purchase for this request; false when another request holds it (or its transaction). */
export async function claimCheckout(db: Db, userId: string, fingerprint: string, at: string): Promise<boolean> {
  const claimed = await db
    .insertInto('checkouts')
    .values({ user_id: userId, fingerprint, transaction_id: null, claimed_at: at })
    .onConflict((oc) => oc.columns(['user_id', 'fingerprint']).doNothing())
    .executeTakeFirst();
  return Number(claimed.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function checkoutOf(db: Db, userId: string, fingerprint: string): Promise<Selectable<CheckoutsTable> | undefined> {
  return db.selectFrom('checkouts').selectAll().where('user_id', '=', userId).where('fingerprint', '=', fingerprint).executeTakeFirst();
}

/** The claim's request created its transaction at Paddle. */
export async function setCheckoutTransaction(db: Db, userId: string, fingerprint: string, transactionId: string): Promise<void> {
  await db.updateTable('checkouts').set({ transaction_id: transactionId }).where('user_id', '=', userId).where('fingerprint', '=', fingerprint).execute();
}

/** Gives up a claim whose request failed before it had a transaction. */
export async function dropClaim(db: Db, userId: string, fingerprint: string): Promise<void> {
  await db.deleteFrom('checkouts').where('user_id', '=', userId).where('fingerprint', '=', fingerprint).where('transaction_id', 'is', null).execute();
}

/** Takes over a claim still without a transaction, if it is still the one claimed at `claimedAt`; whether this call did. */
export async function takeOverClaim(db: Db, userId: string, fingerprint: string, claimedAt: string, at: string): Promise<boolean> {
  const taken = await db
    .updateTable('checkouts')
    .set({ claimed_at: at })
    .where('user_id', '=', userId)
    .where('fingerprint', '=', fingerprint)
    .where('transaction_id', 'is', null)
    .where('claimed_at', '=', claimedAt)
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) > 0;
}

/** Claims anew a purchase whose transaction `transactionId` is no longer open, if it still holds it; whether this call did. */
export async function reclaimCheckout(db: Db, userId: string, fingerprint: string, transactionId: string, at: string): Promise<boolean> {
  const taken = await db
    .updateTable('checkouts')
    .set({ transaction_id: null, claimed_at: at })
    .where('user_id', '=', userId)
    .where('fingerprint', '=', fingerprint)
    .where('transaction_id', '=', transactionId)
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) > 0;
}

/** Forgets the user's checkouts that have a transaction (claims in flight stay theirs). */
export async function deleteOpenCheckouts(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('checkouts').where('user_id', '=', userId).where('transaction_id', 'is not', null).execute();
}
