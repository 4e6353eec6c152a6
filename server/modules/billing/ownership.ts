import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { ownedPerpetual } from '../licensing/index.js';
import { currentRelease } from '../releases/index.js';
import { subscriptionsInStatus } from './subscriptions-repo.js';

/**
 * Subscription statuses during which a subscription is live: it entitles now or will bill again, so a
 * second one would charge the customer twice for the same thing. A subscription being undone as a
 * duplicate (`duplicate_of`) is not the customer's subscription, whatever Paddle still says of it.
 */
export const LIVE_STATUSES = ['active', 'trialing', 'past_due', 'paused'] as const;

/** The user's live subscription, the earliest bought first (a duplicate bought later is the one undone). */
export async function liveSubscriptions(db: Kysely<Database>, userId: string) {
  return subscriptionsInStatus(db, userId, LIVE_STATUSES);
}

/**
 * Spec section 3, `eligibleForDiscountBasedOnPreviousVersion`: the user owns a licence of the release
 * before the current one and not yet one of the current release, so the current release's upgrade
 * discount is theirs.
 */
export async function upgradeEligibility(db: Kysely<Database>, userId: string, now: Date): Promise<{ eligible: boolean; fromRelease: string | null }> {
  const [current, { releases: owned }] = await Promise.all([currentRelease(db, now), ownedPerpetual(db, userId)]);
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
