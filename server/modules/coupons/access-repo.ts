import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** What other modules read of coupon access (the access_passes table): the entitlements ask when it runs out. */

/** A pass of coupon access: it runs from `starts_at` until `ends_at`. */
export interface AccessPass {
  starts_at: string;
  ends_at: string;
}

/**
 * The user's passes not ended at `now`: the running ones and those still to come (a pass redeemed while
 * another runs starts when it ends). What runs at a later moment is among them until a new pass is
 * redeemed, so the entitlements keep them and ask `accessRunningUntil` at each moment.
 */
export async function openAccessPasses(db: Kysely<Database>, userId: string, now: Date): Promise<AccessPass[]> {
  return db.selectFrom('access_passes').select(['starts_at', 'ends_at']).where('user_id', '=', userId).where('ends_at', '>', now.toISOString()).execute();
}

/** The end of the coupon access running at `now` (the latest end of a pass started and not ended), or null when none runs. */
export function accessRunningUntil(passes: readonly AccessPass[], now: Date): string | null {
  const at = now.getTime();
  let until: string | null = null;
  for (const pass of passes) {
    if (Date.parse(pass.starts_at) > at || Date.parse(pass.ends_at) <= at) continue;
    if (until === null || Date.parse(pass.ends_at) > Date.parse(until)) until = pass.ends_at;
  }
  return until;
}
