import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** The cancellations table's SQL (issue 46 item 8): each cancellation with why, for admin analytics. */

type Db = Kysely<Database>;

export async function recordCancellation(
  db: Db,
  cancellation: { userId: string; subscriptionId: string; reason: string | null; comment: string | null; refund: boolean; actorId: string | null; at: string },
): Promise<void> {
  await db
    .insertInto('cancellations')
    .values({
      id: randomUUID(),
      user_id: cancellation.userId,
      subscription_id: cancellation.subscriptionId,
      reason: cancellation.reason,
      comment: cancellation.comment,
      refund: cancellation.refund ? 1 : 0,
      actor_id: cancellation.actorId,
      created_at: cancellation.at,
    })
    .execute();
}

/** Cancellations made in [from, to), each with its reason and when. */
export async function cancellationsBetween(db: Db, from: string, to: string) {
  return db.selectFrom('cancellations').select(['reason', 'created_at']).where('created_at', '>=', from).where('created_at', '<', to).execute();
}
