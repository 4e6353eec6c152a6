import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { Kept } from '../../kept.js';
import { ownedPerpetual } from '../licensing/index.js';
import { currentRelease, releaseLineAt } from '../releases/index.js';
import { subscriptionsInStatus } from './subscriptions-repo.js';

/**
 * Subscription statuses during which a subscription is live: it entitles now or will bill again, so a
 * second one would charge the customer twice for the same thing. A subscription being undone as a
 * duplicate (`duplicate_of`) is not the customer's subscription, whatever Paddle still says of it.
 */
export const LIVE_STATUSES = ['active', 'trialing', 'past_due', 'paused'] as const;

/** What `/users/me` says of the user's billing (spec section 3). */
export interface MeBillingFacts {
  subscriptionId: string | null;
  eligibleForDiscountBasedOnPreviousVersion: boolean;
}

/** The user's live subscription, the earliest bought first (a duplicate bought later is the one undone). */
export async function liveSubscriptions(db: Kysely<Database>, userId: string) {
  return subscriptionsInStatus(db, userId, LIVE_STATUSES);
}

/**
 * Spec section 3, `eligibleForDiscountBasedOnPreviousVersion`: the user owns a licence of the release
 * before the current one and not yet one of the current release, so the current release's upgrade
 * discount is theirs.
 */
function eligibilityOf(current: string | null, owned: ReadonlySet<string>): { eligible: boolean; fromRelease: string | null } {
  if (!current || !/^\d{4}$/.test(current)) return { eligible: false, fromRelease: null };
  const previous = String(Number(current) - 1);
  const eligible = owned.has(previous) && !owned.has(current);
  return { eligible, fromRelease: eligible ? previous : null };
}

export async function upgradeEligibility(db: Kysely<Database>, userId: string, now: Date): Promise<{ eligible: boolean; fromRelease: string | null }> {
  const [current, { releases: owned }] = await Promise.all([currentRelease(db, now), ownedPerpetual(db, userId)]);
  return eligibilityOf(current, owned);
}

/** What `/users/me` says of the user's billing, read now (the users module asks the kept ones below through its BillingFacts port). */
export async function meBillingOf(db: Kysely<Database>, userId: string, now: Date): Promise<MeBillingFacts> {
  const [live, eligibility] = await Promise.all([liveSubscriptions(db, userId), upgradeEligibility(db, userId, now)]);
  return { subscriptionId: live[0]?.id ?? null, eligibleForDiscountBasedOnPreviousVersion: eligibility.eligible };
}

/** What a user holds that `/users/me` answers from: their live subscription and the releases of their licences. */
interface MeHoldings {
  subscriptionId: string | null;
  releases: ReadonlySet<string>;
}

/** A read of the release line, and the instant it stops being current (a build published later). */
interface ReleaseLine {
  release: string | null;
  until: number | null;
}

/**
 * Not served older than this, whatever the event bus says: the bound on a change made elsewhere should
 * its notification be lost unnoticed. A minute: what it guards is the upgrade price and the subscription's
 * id on screen, not access (the desktop's entitlement has its own kept read, with the same bound).
 */
export const ME_BILLING_MAX_AGE_MS = 60_000;
const MAX_USERS = 10_000;

/**
 * `meBillingOf`, kept (issue 45): what a user holds is read once and kept by this instance until an event
 * of theirs about a subscription, a payment or a licence is published (every write that changes what
 * they hold publishes one after its commit: Paddle's webhooks, refunds, the subscription's own actions, a
 * licence returned, a coupon or a Lite key redeemed), or until they are deleted. The release line is
 * kept until a build is added or changed (`releases-changed`) or the next scheduled one is published.
 * The answer is computed from both on each request: nothing in it depends on the time but the release.
 */
export class KeptMeBilling {
  private readonly holdings: Kept<string, MeHoldings>;
  private readonly line: Kept<'current', ReleaseLine>;

  constructor(
    private readonly db: Kysely<Database>,
    options: { clock: Clock; listening: () => boolean },
  ) {
    this.holdings = new Kept({ ...options, maxAgeMs: ME_BILLING_MAX_AGE_MS, maxEntries: MAX_USERS });
    this.line = new Kept({ ...options, maxAgeMs: ME_BILLING_MAX_AGE_MS, maxEntries: 1 });
  }

  async of(userId: string, now: Date): Promise<MeBillingFacts> {
    const [held, line] = await Promise.all([this.holdings.get(userId, () => this.read(userId)), this.releaseLine(now)]);
    return { subscriptionId: held.subscriptionId, eligibleForDiscountBasedOnPreviousVersion: eligibilityOf(line.release, held.releases).eligible };
  }

  forgetUser(userId: string): void {
    this.holdings.forget(userId);
  }

  forgetReleases(): void {
    this.line.forgetAll();
  }

  forgetAll(): void {
    this.holdings.forgetAll();
    this.line.forgetAll();
  }

  private async read(userId: string): Promise<MeHoldings> {
    const [live, owned] = await Promise.all([liveSubscriptions(this.db, userId), ownedPerpetual(this.db, userId)]);
    return { subscriptionId: live[0]?.id ?? null, releases: owned.releases };
  }

  private async releaseLine(now: Date): Promise<ReleaseLine> {
    const read = async () => {
      const { release, until } = await releaseLineAt(this.db, now);
      return { release, until: until === null ? null : Date.parse(until) };
    };
    const kept = await this.line.get('current', read);
    if (kept.until === null || now.getTime() < kept.until) return kept;
    // The next build has been published since: the line moves on.
    this.line.forget('current');
    return this.line.get('current', read);
  }
}
