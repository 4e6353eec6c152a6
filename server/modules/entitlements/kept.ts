import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { Kept } from '../../kept.js';
import { buildOfVersion } from '../releases/index.js';
import { entitlementsFrom, holdingsOf, type Entitlements, type Holdings, type KnownBuild } from './entitlements.js';

/**
 * Not served older than this, whatever the event bus says: the bound on a change made elsewhere should
 * its notification be lost unnoticed (a refund's revoked licence still unlocking exports for that long).
 */
export const HOLDINGS_MAX_AGE_MS = 60_000;
const MAX_USERS = 10_000;
/** Versions the desktop application reports are few (one per build); a made-up one costs a read, not memory. */
const MAX_BUILDS = 1_000;

/**
 * The entitlements of the desktop's heartbeat and the account home, not recomputed from the database on
 * each request (issue 45): what a user holds is read once and kept by this instance until an event of
 * theirs about a subscription, a payment or a licence is published (every write that changes what they
 * hold publishes one after its commit), or they are deleted; the builds the application names are kept
 * until a build is added or changed (`releases-changed`). The entitlement is `entitlementsFrom` at the
 * moment asked, so a trial or a coupon's access ends on time without anyone writing.
 */
export class KeptEntitlements {
  private readonly holdings: Kept<string, Holdings>;
  private readonly builds: Kept<string, KnownBuild>;

  constructor(
    private readonly db: Kysely<Database>,
    options: { clock: Clock; listening: () => boolean },
  ) {
    this.holdings = new Kept({ ...options, maxAgeMs: HOLDINGS_MAX_AGE_MS, maxEntries: MAX_USERS });
    this.builds = new Kept({ ...options, maxAgeMs: HOLDINGS_MAX_AGE_MS, maxEntries: MAX_BUILDS });
  }

  async of(userId: string, now: Date, version?: string): Promise<Entitlements> {
    const [held, build] = await Promise.all([
      this.holdings.get(userId, () => holdingsOf(this.db, userId, now)),
      version ? this.builds.get(version, () => buildOfVersion(this.db, version)) : undefined,
    ]);
    return entitlementsFrom(held, now, build);
  }

  forgetUser(userId: string): void {
    this.holdings.forget(userId);
  }

  forgetReleases(): void {
    this.builds.forgetAll();
  }

  forgetAll(): void {
    this.holdings.forgetAll();
    this.builds.forgetAll();
  }
}
