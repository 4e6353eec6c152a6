import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { PLATFORMS, type Platform, type Release, type releaseCreateSchema } from '../../../contract/licensing.js';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { recordStaffAction, type StaffActor } from '../activity/index.js';
import { type EventBus } from '../events/index.js';
import { markFirstDownload } from '../users/index.js';
import { insertDownload, insertMissingReleases, releasesPublishedBy, upsertRelease, type ReleaseRow } from './repo.js';

/**
 * The builds a fresh installation offers until an admin adds newer ones (`POST /api/releases`): the
 * 2024 release line with its update of 2025, for each platform.
 */
export const SEED_RELEASES: { release: string; version: string; publishedAt: string }[] = [
  { release: '2024', version: '2024.1.0', publishedAt: '2024-03-12T09:00:00.000Z' },
  { release: '2024', version: '2024.2.3', publishedAt: '2025-06-03T09:00:00.000Z' },
  { release: '2025', version: '2025.1.0', publishedAt: '2026-02-10T09:00:00.000Z' },
];

const downloadUrl = (version: string, platform: Platform) =>
  `https://downloads.shapelab.app/${version}/Shapelab-${version}-${platform}.${platform === 'windows' ? 'exe' : platform === 'macos' ? 'dmg' : 'AppImage'}`;

function toRelease(row: ReleaseRow): Release {
  return {
    id: row.id,
    release: row.release,
    version: row.version,
    platform: row.platform as Platform,
    url: row.url,
    publishedAt: new Date(row.published_at).toISOString(),
  };
}

/** Adds the seed builds that are missing (by version and platform); run at start, harmless to repeat. */
export async function seedReleases(db: Kysely<Database>): Promise<void> {
  const rows = SEED_RELEASES.flatMap((seed) =>
    PLATFORMS.map((platform) => ({
      id: randomUUID(),
      release: seed.release,
      version: seed.version,
      platform,
      url: downloadUrl(seed.version, platform),
      published_at: seed.publishedAt,
    })),
  );
  await insertMissingReleases(db, rows);
}

/** `GET /releases/latest`: the newest build published so far for each platform. */
export async function latestReleases(deps: { db: Kysely<Database>; clock: Clock }): Promise<Release[]> {
  const rows = await releasesPublishedBy(deps.db, deps.clock.now().toISOString());
  const newest = new Map<string, ReleaseRow>();
  for (const row of rows) if (!newest.has(row.platform)) newest.set(row.platform, row);
  return PLATFORMS.flatMap((platform) => {
    const row = newest.get(platform);
    return row ? [toRelease(row)] : [];
  });
}

/**
 * `POST /releases` (admin): a new build; the same version and platform again replaces its URL and date.
 * Every instance forgets the release line and the builds it keeps (the upgrade price of `/users/me`, the
 * heartbeat's coverage) once it is stored.
 */
export async function addRelease(
  deps: { db: Kysely<Database>; clock: Clock; bus: Pick<EventBus, 'announce'> },
  input: z.infer<typeof releaseCreateSchema>,
  staff: StaffActor,
): Promise<Release> {
  const published_at = new Date(input.publishedAt).toISOString();
  const release = await deps.db.transaction().execute(async (trx) => {
    const row = await upsertRelease(trx, { id: randomUUID(), release: input.release, version: input.version, platform: input.platform, url: input.url, published_at });
    // Issue 47: what every customer downloads next; the audit log keeps who published it.
    await recordStaffAction(trx, { actor: staff, action: 'release.created', subjectId: null, details: { release: input.release, version: input.version, platform: input.platform }, at: deps.clock.now() });
    return toRelease(row);
  });
  deps.bus.announce({ kind: 'releases-changed' });
  return release;
}

/**
 * `POST /users/downloadedShapelab` (spec section 7): records a download of the desktop application;
 * the user's first one is the admin users table's 'downloaded' date.
 */
export async function recordDownload(
  deps: { db: Kysely<Database>; clock: Clock },
  userId: string,
  input: { platform?: Platform | undefined; releaseId?: string | undefined },
): Promise<{ recorded: true }> {
  const now = deps.clock.now().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    await insertDownload(trx, { id: randomUUID(), user_id: userId, release_id: input.releaseId ?? null, platform: input.platform ?? null, downloaded_at: now });
    await markFirstDownload(trx, userId, now);
  });
  return { recorded: true };
}
