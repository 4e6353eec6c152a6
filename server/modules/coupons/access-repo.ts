import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** What other modules read of coupon access (the access_passes table): the entitlements ask when it runs out. */

/**
 * The end of the user's coupon access running at `now` (the latest end of a pass that has started and not
 * ended), or null when none runs.
 */
export async function accessRunningUntil(db: Kysely<Database>, userId: string, now: Date): Promise<string | null> {
  const nowIso = now.toISOString();
  const pass = await db
    .selectFrom('access_passes')
    .select((eb) => eb.fn.max('ends_at').as('ends_at'))
    .where('user_id', '=', userId)
    .where('starts_at', '<=', nowIso)
    .where('ends_at', '>', nowIso)
    .executeTakeFirst();
  return pass?.ends_at ?? null;
}
