import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { Database, DownloadsTable, ReleasesTable } from '../../db/schema.js';

/** The releases module's SQL: the desktop application's builds (`releases`) and their downloads (`downloads`). */

export type ReleaseRow = Selectable<ReleasesTable>;

/** Inserts the builds not there yet (by version and platform). */
export async function insertMissingReleases(db: Kysely<Database>, rows: Insertable<ReleasesTable>[]): Promise<void> {
  await db
    .insertInto('releases')
    .values(rows)
    .onConflict((oc) => oc.columns(['version', 'platform']).doNothing())
    .execute();
}

/** Every build published by `nowIso`, newest first. */
export async function releasesPublishedBy(db: Kysely<Database>, nowIso: string): Promise<ReleaseRow[]> {
  return db.selectFrom('releases').selectAll().where('published_at', '<=', nowIso).orderBy('published_at', 'desc').execute();
}

/** Inserts a build, or gives the build of the same version and platform this URL, date and release line. */
export async function upsertRelease(db: Kysely<Database>, row: Insertable<ReleasesTable> & { published_at: string }): Promise<ReleaseRow> {
  return db
    .insertInto('releases')
    .values(row)
    .onConflict((oc) => oc.columns(['version', 'platform']).doUpdateSet({ url: row.url, published_at: row.published_at, release: row.release }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function insertDownload(trx: Transaction<Database>, row: Insertable<DownloadsTable>): Promise<void> {
  await trx.insertInto('downloads').values(row).execute();
}
