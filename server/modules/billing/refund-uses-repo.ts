import type { Kysely } from 'kysely';
import type { Database, RefundUsesTable } from '../../db/schema.js';

/**
 * The refund_uses table's SQL (issue 46 item 1): the customer's one 14-day refund for the subscription and
 * one per release. The primary key (user_id, scope) is the rule: of two requests at once (two tabs, a
 * retried request, the customer and an admin) one inserts and the other finds the row, in the database's
 * own order, never by a read before a write.
 */

type Db = Kysely<Database>;

/** Records the use of `scope`'s refund unless it was used already; whether this call recorded it. */
export async function claimRefundUse(db: Db, use: { userId: string; scope: string; transactionId: string; usedBy: RefundUsesTable['used_by']; at: string }): Promise<boolean> {
  const result = await db
    .insertInto('refund_uses')
    .values({ user_id: use.userId, scope: use.scope, transaction_id: use.transactionId, used_by: use.usedBy, used_at: use.at })
    .onConflict((oc) => oc.columns(['user_id', 'scope']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** The scopes whose refund the user has used ('subscription', 'release:2025'...). */
export async function usedRefundScopes(db: Db, userId: string): Promise<Set<string>> {
  const rows = await db.selectFrom('refund_uses').select('scope').where('user_id', '=', userId).execute();
  return new Set(rows.map((row) => row.scope));
}
