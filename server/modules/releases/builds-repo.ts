import type { Kysely, Selectable } from 'kysely';
import type { Database, ReleasesTable } from '../../db/schema.js';

/**
 * What other modules read of the builds (the releases table, the portal's own record of them): billing
 * asks for the current release line and a licence's downloads, the entitlements for the release a
 * running version belongs to.
 */

type Db = Kysely<Database>;

/** The newest release line with a build published by `now`, or null before the first. */
export async function currentRelease(db: Db, now: Date): Promise<string | null> {
  const row = await db
    .selectFrom('releases')
    .select((eb) => eb.fn.max('release').as('release'))
    .where('published_at', '<=', now.toISOString())
    .executeTakeFirst();
  return row?.release ?? null;
}

/**
 * The release line current at `now` and until when it is current: the next publication after `now`
 * (of any build), null when none is scheduled. What keeps the line (billing's upgrade price) reads
 * again from then, or when a build is added or changed.
 */
export async function releaseLineAt(db: Db, now: Date): Promise<{ release: string | null; until: string | null }> {
  const [release, next] = await Promise.all([
    currentRelease(db, now),
    db
      .selectFrom('releases')
      .select((eb) => eb.fn.min('published_at').as('published_at'))
      .where('published_at', '>', now.toISOString())
      .executeTakeFirst(),
  ]);
  return { release, until: next?.published_at ?? null };
}

/** The release line of `version` and when it was published (of any of its platforms), or undefined for a version the portal does not know. */
export async function buildOfVersion(db: Db, version: string): Promise<{ release: string; published_at: string } | undefined> {
  return db.selectFrom('releases').select(['release', 'published_at']).where('version', '=', version).executeTakeFirst();
}

/** The builds of `release` published by `until`, the newest first. */
export async function buildsOfRelease(db: Db, release: string, until: string): Promise<Selectable<ReleasesTable>[]> {
  return db
    .selectFrom('releases')
    .selectAll()
    .where('release', '=', release)
    .where('published_at', '<=', until)
    .orderBy('published_at', 'desc')
    .execute();
}
