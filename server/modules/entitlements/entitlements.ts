import type { Kysely } from 'kysely';
import { SEATS_PER_ENTITLEMENT, type Entitlement, type EntitlementItem } from '../../../contract/licensing.js';
import type { Database } from '../../db/schema.js';
import { latestSubscriptionOf, type EntitlingSubscription } from '../billing/index.js';
import { accessRunningUntil, openAccessPasses, type AccessPass } from '../coupons/index.js';
import { heldLicences, type HeldLicence } from '../licensing/index.js';
import { buildOfVersion } from '../releases/index.js';

/** Subscription statuses that still entitle: Paddle keeps a past-due subscription running while it retries. */
const PAID_STATUSES = new Set(['active', 'past_due']);

export interface Entitlements {
  entitlement: Entitlement;
  /** How many devices the user may have at once: two per entitlement, and the free plan's two. */
  seatLimit: number;
}

/**
 * Everything a user holds that decides what they may do: their latest subscription (billing's), their
 * licences and Lite keys (licensing's) and their coupon access not ended yet (coupons'), each asked of the
 * module that owns it. Only writes change it; what the time decides (a trial's end, a pass's start and end)
 * is decided from it at each moment. ./kept.ts keeps it.
 */
export interface Holdings {
  subscription: EntitlingSubscription | undefined;
  licences: HeldLicence[];
  accessPasses: AccessPass[];
}

/** A build the desktop application runs, as the portal knows it: its release line and publication. */
export type KnownBuild = { release: string; published_at: string } | undefined;

/** What the user holds, read now, in the caller's transaction when there is one. */
export async function holdingsOf(db: Kysely<Database>, userId: string, now: Date): Promise<Holdings> {
  // A subscription being undone as a duplicate, and a returned licence, entitle nothing: their owners leave them out.
  const [subscription, licences, accessPasses] = await Promise.all([
    latestSubscriptionOf(db, userId),
    // Full licences and Lite ones: a claimed Lite key is a licence of the Lite edition.
    heldLicences(db, userId),
    openAccessPasses(db, userId, now),
  ]);
  return { subscription, licences, accessPasses };
}

/**
 * What the user may do at `now`, read from the database now: for the decisions made in a transaction
 * (a seat's activation, the seats released after a return). The desktop's heartbeat and the account
 * home ask ./kept.ts, which keeps the holdings; both answer `entitlementsFrom`.
 */
export async function entitlementsOf(db: Kysely<Database>, userId: string, now: Date, version?: string): Promise<Entitlements> {
  const [held, build] = await Promise.all([holdingsOf(db, userId, now), version ? buildOfVersion(db, version) : undefined]);
  return entitlementsFrom(held, now, build);
}

/**
 * What the user may do at `now` with what they hold (and, for a heartbeat naming its version, the build
 * it runs):
 * - an active (or past-due) subscription: 'subscription', export and save enabled;
 * - a perpetual licence: 'perpetual', enabled (for a named build, only if the licence covers it);
 * - coupon access running now: 'access', enabled until it ends;
 * - a trialing subscription: 'trial', enabled until the trial's end date by this clock, disabled from it;
 * - a Shapelab Lite key: 'lite', enabled;
 * - nothing: 'basic', export and save disabled.
 * Each of them counts as one entitlement for seats (a subscription, each licence, each running pass).
 * `items` lists all of them in detail: the desktop API and the account home both answer this one result,
 * so what the home shows and what the application unlocks never disagree (issue 20).
 */
export function entitlementsFrom(held: Holdings, now: Date, build: KnownBuild): Entitlements {
  const { subscription, licences } = held;
  const accessEnds = accessRunningUntil(held.accessPasses, now);
  const paid = subscription !== undefined && PAID_STATUSES.has(subscription.status);
  const trialing = subscription?.status === 'trialing';
  const trialEndsAt = trialing ? (subscription.trial_ends_at ?? null) : null;
  const trialRunning = trialing && trialEndsAt !== null && Date.parse(trialEndsAt) > now.getTime();
  const full = licences.filter((licence) => licence.edition === 'full');
  const lite = licences.filter((licence) => licence.edition === 'lite');
  // A build the server knows is covered when it is of a licence's release line and published before its updates end.
  const covers = (licence: (typeof full)[number]) =>
    !build || (licence.release === build.release && (licence.updates_until === null || Date.parse(build.published_at) <= Date.parse(licence.updates_until)));
  const accessEndsAt = accessEnds ? new Date(accessEnds).toISOString() : null;

  const releases = [...new Set(full.flatMap((licence) => (licence.release ? [licence.release] : [])))].sort();
  const items = itemsOf({ subscription: paid || trialing ? subscription : undefined, enabled: paid || trialRunning, full, lite, accessEndsAt });
  const base = { trialEndsAt: trialEndsAt ? new Date(trialEndsAt).toISOString() : null, accessEndsAt, releases, items };
  let entitlement: Entitlement;
  if (paid) entitlement = { plan: 'subscription', ...base, exportEnabled: true, saveEnabled: true };
  else if (full.some(covers)) entitlement = { plan: 'perpetual', ...base, exportEnabled: true, saveEnabled: true };
  else if (accessEndsAt) entitlement = { plan: 'access', ...base, exportEnabled: true, saveEnabled: true };
  else if (trialing) entitlement = { plan: 'trial', ...base, exportEnabled: trialRunning, saveEnabled: trialRunning };
  else if (lite.length > 0) entitlement = { plan: 'lite', ...base, exportEnabled: true, saveEnabled: true };
  else entitlement = { plan: 'basic', ...base, exportEnabled: false, saveEnabled: false };

  const count = (paid || trialing ? 1 : 0) + full.length + lite.length + (accessEndsAt ? 1 : 0);
  return { entitlement, seatLimit: SEATS_PER_ENTITLEMENT * Math.max(1, count) };
}

const isoOrNull = (value: string | null | undefined) => (value ? new Date(value).toISOString() : null);

/** The detail of what `entitlementsOf` found: the subscription, each licence, coupon access, each Lite key. */
function itemsOf(held: { subscription: EntitlingSubscription | undefined; enabled: boolean; full: HeldLicence[]; lite: HeldLicence[]; accessEndsAt: string | null }): EntitlementItem[] {
  const items: EntitlementItem[] = [];
  const { subscription } = held;
  if (subscription) {
    // A cancellation scheduled by Paddle ends it at that date; until then it neither renews nor charges.
    const endsAt = subscription.scheduled_change_action === 'cancel' ? isoOrNull(subscription.scheduled_change_at) : null;
    items.push({
      kind: 'subscription',
      status: subscription.status as 'active' | 'past_due' | 'trialing',
      priceId: subscription.price_id,
      interval: subscription.billing_interval === 'month' || subscription.billing_interval === 'year' ? subscription.billing_interval : null,
      trialEndsAt: subscription.status === 'trialing' ? isoOrNull(subscription.trial_ends_at) : null,
      renewsAt: endsAt ? null : isoOrNull(subscription.next_billed_at),
      endsAt,
      enabled: held.enabled,
    });
  }
  for (const licence of held.full) {
    items.push({
      kind: 'licence',
      id: licence.id,
      productName: licence.release ? `Shapelab ${licence.release}` : 'Shapelab',
      release: licence.release,
      updatesUntil: isoOrNull(licence.updates_until),
      source: licence.source === 'purchase' ? 'purchase' : 'coupon',
    });
  }
  if (held.accessEndsAt) items.push({ kind: 'access', endsAt: held.accessEndsAt });
  for (const licence of held.lite) items.push({ kind: 'lite', channel: licence.channel });
  return items;
}
