import type { Kysely } from 'kysely';
import { SEATS_PER_ENTITLEMENT, type Entitlement } from '../../../contract/licensing.js';
import type { Database } from '../../db/schema.js';

/** Subscription statuses that still entitle: Paddle keeps a past-due subscription running while it retries. */
const PAID_STATUSES = new Set(['active', 'past_due']);

export interface Entitlements {
  entitlement: Entitlement;
  /** How many devices the user may have at once: two per entitlement, and the free plan's two. */
  seatLimit: number;
}

/**
 * What the user may do at `now`, from their latest subscription, licences and coupon access.
 * - an active (or past-due) subscription: 'subscription', export and save enabled;
 * - a perpetual licence: 'perpetual', enabled (for `version`, when named, only if the licence covers it);
 * - coupon access running now: 'access', enabled until it ends;
 * - a trialing subscription: 'trial', enabled until the trial's end date by this clock, disabled from it;
 * - a Shapelab Lite key: 'lite', enabled;
 * - nothing: 'basic', export and save disabled.
 * Each of them counts as one entitlement for seats (a subscription, each licence, each running pass).
 */
export async function entitlementsOf(db: Kysely<Database>, userId: string, now: Date, version?: string): Promise<Entitlements> {
  const nowIso = now.toISOString();
  const [subscription, licences, pass, build] = await Promise.all([
    // A subscription being undone as a duplicate, and a returned licence, entitle nothing.
    db
      .selectFrom('subscriptions')
      .select(['status', 'trial_ends_at'])
      .where('user_id', '=', userId)
      .where('duplicate_of', 'is', null)
      .orderBy('created_at', 'desc')
      .executeTakeFirst(),
    db.selectFrom('licences').select(['edition', 'release', 'updates_until']).where('user_id', '=', userId).where('revoked_at', 'is', null).execute(),
    db
      .selectFrom('access_passes')
      .select((eb) => eb.fn.max('ends_at').as('ends_at'))
      .where('user_id', '=', userId)
      .where('starts_at', '<=', nowIso)
      .where('ends_at', '>', nowIso)
      .executeTakeFirst(),
    version ? db.selectFrom('releases').select(['release', 'published_at']).where('version', '=', version).executeTakeFirst() : undefined,
  ]);

  const paid = subscription !== undefined && PAID_STATUSES.has(subscription.status);
  const trialing = subscription?.status === 'trialing';
  const trialEndsAt = trialing ? (subscription.trial_ends_at ?? null) : null;
  const trialRunning = trialing && trialEndsAt !== null && Date.parse(trialEndsAt) > now.getTime();
  const full = licences.filter((licence) => licence.edition === 'full');
  const lite = licences.filter((licence) => licence.edition === 'lite');
  // A build the server knows is covered when it is of a licence's release line and published before its updates end.
  const covers = (licence: (typeof full)[number]) =>
    !build || (licence.release === build.release && (licence.updates_until === null || Date.parse(build.published_at) <= Date.parse(licence.updates_until)));
  const accessEndsAt = pass?.ends_at ? new Date(pass.ends_at).toISOString() : null;

  const releases = [...new Set(full.flatMap((licence) => (licence.release ? [licence.release] : [])))].sort();
  const base = { trialEndsAt: trialEndsAt ? new Date(trialEndsAt).toISOString() : null, accessEndsAt, releases };
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
