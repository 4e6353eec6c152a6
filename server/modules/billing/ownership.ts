import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * Subscription statuses during which a subscription is live: it entitles now or will bill again, so a
 * second one would charge the customer twice for the same thing. A subscription being undone as a
 * duplicate (`duplicate_of`) is not the customer's subscription, whatever Paddle still says of it.
 */
export const LIVE_STATUSES = ['active', 'trialing', 'past_due', 'paused'] as const;

/** The user's live subscription, the earliest bought first (a duplicate bought later is the one undone). */
export async function liveSubscriptions(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('subscriptions')
    .select(['id', 'status', 'created_at', 'duplicate_of'])
    .where('user_id', '=', userId)
    .where('status', 'in', [...LIVE_STATUSES])
    .where('duplicate_of', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The live releases the user holds a full licence of (bought or from a coupon; returned ones excluded). */
export async function ownedReleases(db: Kysely<Database>, userId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('licences')
    .select('release')
    .where('user_id', '=', userId)
    .where('edition', '=', 'full')
    .where('revoked_at', 'is', null)
    .execute();
  return new Set(rows.flatMap((row) => (row.release ? [row.release] : [])));
}

/** The newest release line with a build published by `now` (the releases table is the portal's own record). */
export async function currentRelease(db: Kysely<Database>, now: Date): Promise<string | null> {
  const row = await db
    .selectFrom('releases')
    .select((eb) => eb.fn.max('release').as('release'))
    .where('published_at', '<=', now.toISOString())
    .executeTakeFirst();
  return row?.release ?? null;
}

/**
 * Spec section 3, `eligibleForDiscountBasedOnPreviousVersion`: the user owns a licence of the release
 * before the current one and not yet one of the current release, so the current release's upgrade
 * discount is theirs.
 */
export async function upgradeEligibility(db: Kysely<Database>, userId: string, now: Date): Promise<{ eligible: boolean; fromRelease: string | null }> {
  const [current, owned] = await Promise.all([currentRelease(db, now), ownedReleases(db, userId)]);
  if (!current || !/^\d{4}$/.test(current)) return { eligible: false, fromRelease: null };
  const previous = String(Number(current) - 1);
  const eligible = owned.has(previous) && !owned.has(current);
  return { eligible, fromRelease: eligible ? previous : null };
}

/** What `/users/me` says of the user's billing (the users module asks through its BillingFacts port). */
export async function meBillingOf(db: Kysely<Database>, userId: string, now: Date): Promise<{ subscriptionId: string | null; eligibleForDiscountBasedOnPreviousVersion: boolean }> {
  const [live, eligibility] = await Promise.all([liveSubscriptions(db, userId), upgradeEligibility(db, userId, now)]);
  return { subscriptionId: live[0]?.id ?? null, eligibleForDiscountBasedOnPreviousVersion: eligibility.eligible };
}
