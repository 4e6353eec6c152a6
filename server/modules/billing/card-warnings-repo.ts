import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * The card_expiry_warnings table's SQL (issue 46 item 6): one warning per customer and card, the primary
 * key the rule, so a job run twice (a retry, two instances, the card's job queued again by a later payment)
 * mails once.
 */
export async function claimCardWarning(db: Kysely<Database>, userId: string, card: string, at: string): Promise<boolean> {
  const result = await db
    .insertInto('card_expiry_warnings')
    .values({ user_id: userId, card, warned_at: at })
    .onConflict((oc) => oc.columns(['user_id', 'card']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}
