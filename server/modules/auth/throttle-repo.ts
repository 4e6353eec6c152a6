import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** The attempt counters' SQL (`throttles`): one row per key, its count and the end of its window. */

type Db = Kysely<Database>;

/**
 * Counts one attempt under `key` in one statement (an upsert: instances counting at once each get their
 * own number), starting a new window ending at `windowEnd` when the last one ended by `now`.
 */
export async function incrementCounter(db: Db, key: string, now: string, windowEnd: string): Promise<{ count: number; windowEndsAt: string }> {
  const row = await db
    .insertInto('throttles')
    .values({ key, count: 1, window_ends_at: windowEnd })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when throttles.window_ends_at <= ${now} then 1 else throttles.count + 1 end`,
        window_ends_at: sql<string>`case when throttles.window_ends_at <= ${now} then ${windowEnd} else throttles.window_ends_at end`,
      }),
    )
    .returning(['count', 'window_ends_at'])
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), windowEndsAt: row.window_ends_at };
}

export async function counterOf(db: Db, key: string) {
  return db.selectFrom('throttles').select(['count', 'window_ends_at']).where('key', '=', key).executeTakeFirst();
}

export async function deleteCounter(db: Db, key: string): Promise<void> {
  await db.deleteFrom('throttles').where('key', '=', key).execute();
}

/** Forgets counters whose window ended before `before`. */
export async function deleteCountersEndedBefore(db: Db, before: string): Promise<void> {
  await db.deleteFrom('throttles').where('window_ends_at', '<', before).execute();
}

/**
 * Forgets the counters keyed by an address (sign-in, reset and code counters name it as one part of the
 * key). `_` in LIKE matches any character, so the candidates are read and only the exact ones removed.
 */
export async function deleteCountersOfAddress(db: Db, address: string): Promise<void> {
  const counters = await db.selectFrom('throttles').select('key').where('key', 'like', `%${address}%`).execute();
  const personal = counters.map((row) => row.key).filter((key) => key.split(':').includes(address));
  if (personal.length > 0) await db.deleteFrom('throttles').where('key', 'in', personal).execute();
}
