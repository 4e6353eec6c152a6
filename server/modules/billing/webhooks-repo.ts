import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * The SQL of Paddle's notifications: each event stored once by its event_id (webhook_events; a repeat
 * inserts nothing and is not applied again), and the correctly signed ones the portal could not read
 * counted by key (webhook_rejections).
 */

type Db = Kysely<Database>;

/** Stores the event unless it was stored before; whether this delivery is its first. */
export async function storeEvent(db: Db, event: { eventId: string; eventType: string; occurredAt: string; receivedAt: string }): Promise<boolean> {
  const stored = await db
    .insertInto('webhook_events')
    .values({ event_id: event.eventId, event_type: event.eventType, occurred_at: event.occurredAt, received_at: event.receivedAt })
    .onConflict((oc) => oc.column('event_id').doNothing())
    .executeTakeFirst();
  return Number(stored.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Counts one delivery of a rejected notification (the first creates its row), in one statement; its deliveries so far. */
export async function countRejection(db: Db, rejection: { key: string; eventId: string | null; eventType: string | null; problem: string; at: string }): Promise<number> {
  const row = await db
    .insertInto('webhook_rejections')
    .values({
      key: rejection.key,
      event_id: rejection.eventId,
      event_type: rejection.eventType,
      problem: rejection.problem,
      deliveries: 1,
      first_at: rejection.at,
      last_at: rejection.at,
    })
    .onConflict((oc) => oc.column('key').doUpdateSet({ deliveries: sql<number>`webhook_rejections.deliveries + 1`, last_at: rejection.at }))
    .returning('deliveries')
    .executeTakeFirstOrThrow();
  return Number(row.deliveries);
}
