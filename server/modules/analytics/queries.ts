import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type { AnalyticsQuery, Granularity } from '../../../contract/analytics.js';
import { EXPORT_FORMATS } from '../../../contract/licensing.js';
import type { Database } from '../../db/schema.js';

/**
 * The dashboard's reads (./dashboard.ts): a few rollup or cohort rows per period and played-minute
 * value, summed by the database, never raw reports.
 */

export type Filters = Pick<AnalyticsQuery, 'from' | 'to' | 'suspicious' | 'minPlayed' | 'maxPlayed'>;

/** The filters as a condition on a table with `suspicious` and `played_minutes` columns (rollups, cohorts). */
function matchesFilters(filters: Filters) {
  return <DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>): Expression<SqlBool> => {
    const conditions: Expression<SqlBool>[] = [];
    if (filters.suspicious === 'exclude') conditions.push(eb(sql.ref('suspicious'), '=', 0));
    if (filters.suspicious === 'only') conditions.push(eb(sql.ref('suspicious'), '=', 1));
    if (filters.minPlayed !== undefined) conditions.push(eb(sql.ref('played_minutes'), '>=', filters.minPlayed));
    if (filters.maxPlayed !== undefined) conditions.push(eb(sql.ref('played_minutes'), '<=', filters.maxPlayed));
    return eb.and(conditions);
  };
}

/** The rollup columns the dashboard sums. */
export const SUMS = [
  'is_new',
  'active_users',
  'sessions',
  'session_seconds',
  'played_seconds',
  'launches',
  'activations',
  'sales',
  ...EXPORT_FORMATS.map((format) => `exports_${format}` as const),
] as const;

export type Sum = (typeof SUMS)[number];

/** The sums of the rollup rows the filters match, per period from `from` to `to` (first days of periods). */
export async function rollupSumsByPeriod(
  db: Kysely<Database>,
  input: { grain: Granularity; channel: string; from: string; to: string; filters: Filters },
): Promise<({ period: string } & Record<Sum, number | string | null>)[]> {
  return db
    .selectFrom('analytics_rollups')
    .select('period')
    .select((eb) => SUMS.map((name) => eb.fn.sum<number | string>(name).as(name)))
    .where('grain', '=', input.grain)
    .where('channel', '=', input.channel)
    .where('period', '>=', input.from)
    .where('period', '<=', input.to)
    .where(matchesFilters(input.filters))
    .groupBy('period')
    .execute();
}

/**
 * The channel's first day with a rollup row. Empty rollup rows are deleted (./rollups-repo.ts), so it
 * is the first day with data; the primary key (grain, channel, period, ...) makes it one index step.
 */
export async function firstRollupDay(db: Kysely<Database>, channel: string): Promise<string | null> {
  const row = await db
    .selectFrom('analytics_rollups')
    .select('period')
    .where('grain', '=', 'day')
    .where('channel', '=', channel)
    .orderBy('period')
    .limit(1)
    .executeTakeFirst();
  return row?.period ?? null;
}

/** Users per cohort (from `from` to `to`, first days of periods) and retention level reached, as the filters match. */
export async function cohortCounts(
  db: Kysely<Database>,
  input: { grain: Granularity; from: string; to: string; filters: Filters },
): Promise<{ cohort: string; retained: number; users: number | string }[]> {
  return db
    .selectFrom('analytics_cohorts')
    .select(['cohort', 'retained'])
    .select((eb) => eb.fn.sum<number | string>('users').as('users'))
    .where('grain', '=', input.grain)
    .where('cohort', '>=', input.from)
    .where('cohort', '<=', input.to)
    .where(matchesFilters(input.filters))
    .groupBy(['cohort', 'retained'])
    .execute();
}
