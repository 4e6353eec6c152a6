import type { Insertable, Kysely } from 'kysely';
import type { ChargebacksTable, Database } from '../../db/schema.js';

/**
 * The chargebacks table's SQL (issue 46 item 9): one row per Paddle chargeback adjustment (its id the key,
 * so a webhook delivered twice takes back once), reversed when the bank gives the money back.
 */

type Db = Kysely<Database>;

/** Records a chargeback unless it is known already; whether this call recorded it. */
export async function insertChargeback(db: Db, row: Insertable<ChargebacksTable>): Promise<boolean> {
  const result = await db
    .insertInto('chargebacks')
    .values(row)
    .onConflict((oc) => oc.column('adjustment_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** The bank reversed the chargebacks of a payment; whether any was still standing. */
export async function markChargebacksReversed(db: Db, transactionId: string, at: string): Promise<boolean> {
  const result = await db.updateTable('chargebacks').set({ reversed_at: at }).where('transaction_id', '=', transactionId).where('reversed_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Of `userIds`, those with a chargeback standing (not reversed). */
export async function usersWithChargebacks(db: Db, userIds: string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db.selectFrom('chargebacks').select('user_id').distinct().where('user_id', 'in', userIds).where('reversed_at', 'is', null).execute();
  return new Set(rows.flatMap((row) => (row.user_id ? [row.user_id] : [])));
}

/** A user's chargebacks, newest first, for support. */
export async function chargebacksOf(db: Db, userId: string) {
  return db
    .selectFrom('chargebacks')
    .select(['adjustment_id', 'transaction_id', 'subscription_id', 'amount', 'currency_code', 'created_at', 'reversed_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .execute();
}
