import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/index.js';
import type { Database } from '../../db/schema.js';
import { clearDerivedTables, insertCohorts, insertDailyUserPeriods, insertLifetimes, insertRollups, insertUserPeriodsOfGrain } from './rebuild-repo.js';

/**
 * Recomputes every rollup from the raw rows, in one transaction: what the bench generator uses after
 * writing millions of raw rows at once, and a second, set-based statement of the rules that
 * `ingest.ts` applies report by report (tests/api/analytics.test.ts checks that both agree). Each table
 * is derived from the one before: daily user-periods from the reports, weeks and months from the days,
 * rollups from the user-periods, lifetimes from the daily ones, cohorts from the lifetimes.
 */
export async function rebuildAnalytics(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await clearDerivedTables(trx);
    await insertDailyUserPeriods(trx, dialect);
    for (const grain of ['week', 'month'] as const) await insertUserPeriodsOfGrain(trx, dialect, grain);
    await insertRollups(trx);
    await insertLifetimes(trx, dialect);
    await insertCohorts(trx, dialect);
  });
}
