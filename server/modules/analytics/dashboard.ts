import type { Kysely } from 'kysely';
import {
  MAX_RANGE_DAYS,
  RETENTION_DAYS,
  type AnalyticsComparison,
  type AnalyticsPoint,
  type AnalyticsQuery,
  type AnalyticsResponse,
  type CohortQuery,
  type CohortResponse,
  type FirstDayQuery,
  type FirstDayResponse,
} from '../../../contract/analytics.js';
import { EXPORT_FORMATS } from '../../../contract/licensing.js';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { compareKpis, comparedPeriods, incompleteFrom, kpiFigures } from './comparison.js';
import { addDays, dayOf, daysBetween, periodEnd, periodOf, periodsBetween } from './periods.js';
import { cohortCounts, firstRollupDay, rollupSumsByPeriod, SUMS, type Filters, type Sum } from './queries.js';

export interface AnalyticsReadDeps {
  db: Kysely<Database>;
  clock: Clock;
}

/** A real calendar day: the contract's pattern lets 2035-02-30 through, which Date would read as 2 March. */
const isCalendarDay = (day: string) => {
  try {
    return dayOf(day) === day;
  } catch {
    return false;
  }
};

function checkRange(filters: Filters) {
  if (!isCalendarDay(filters.from) || !isCalendarDay(filters.to)) throw new AppError('ANALYTICS_RANGE_INVALID', 400);
  const days = daysBetween(filters.from, filters.to);
  if (Number.isNaN(days) || days < 0 || days >= MAX_RANGE_DAYS) throw new AppError('ANALYTICS_RANGE_INVALID', 400);
  if (filters.minPlayed !== undefined && filters.maxPlayed !== undefined && filters.minPlayed > filters.maxPlayed) throw new AppError('ANALYTICS_PLAYED_RANGE_INVALID', 400);
}

type Sums = Record<Sum, number>;

function toPoint(period: string, sums: Sums | undefined): AnalyticsPoint {
  const value = (name: Sum) => sums?.[name] ?? 0;
  const sessions = value('sessions');
  return {
    period,
    newUsers: value('is_new'),
    activeUsers: value('active_users'),
    sessions,
    sessionSeconds: value('session_seconds'),
    averageSessionSeconds: sessions ? value('session_seconds') / sessions : 0,
    playedSeconds: value('played_seconds'),
    launches: value('launches'),
    activations: value('activations'),
    sales: value('sales'),
    exports: Object.fromEntries(EXPORT_FORMATS.map((format) => [format, value(`exports_${format}`)])) as AnalyticsPoint['exports'],
  };
}

/**
 * `GET /analytics` (admin): one point per period overlapping the range, read from the rollups (a few
 * rows per period and played-minute value), never from raw reports. The same query reads the periods
 * just before the range, for the KPIs' change against the previous period (issue 21 item 3).
 */
export async function dashboard(deps: AnalyticsReadDeps, query: AnalyticsQuery): Promise<AnalyticsResponse> {
  checkRange(query);
  const periods = periodsBetween(query.granularity, query.from, query.to);
  const first = periods[0] ?? query.from;
  const today = dayOf(deps.clock.now());
  const compared = comparedPeriods(query.granularity, periods, today);
  const rows = await rollupSumsByPeriod(deps.db, { grain: query.granularity, channel: query.channel, from: compared?.previousFrom ?? first, to: query.to, filters: query });
  const byPeriod = new Map(rows.map((row) => [row.period, Object.fromEntries(SUMS.map((name) => [name, Number(row[name] ?? 0)])) as Sums]));
  const series = periods.map((period) => toPoint(period, byPeriod.get(period)));
  const { period: _period, ...sum } = toPoint('', sumOf(periods, byPeriod));
  let comparison: AnalyticsComparison | null = null;
  if (compared) {
    const count = compared.complete.length;
    const { period: _c, ...currentSum } = toPoint('', sumOf(compared.complete, byPeriod));
    const { period: _p, ...previousSum } = toPoint('', sumOf(compared.previous, byPeriod));
    const current = kpiFigures(currentSum, count);
    const previous = kpiFigures(previousSum, count);
    const { from, to, previousFrom, previousTo } = compared;
    comparison = { periods: count, from, to, previousFrom, previousTo, current, previous, change: compareKpis(current, previous) };
  }
  return {
    granularity: query.granularity,
    channel: query.channel,
    series,
    // Distinct users do not add up across periods: the KPI is the mean per period.
    totals: { ...sum, activeUsers: Math.round(sum.activeUsers / Math.max(1, periods.length)) },
    incompleteFrom: incompleteFrom(query.granularity, periods, today),
    comparison,
  };
}

/** The figures of `periods` added up. */
function sumOf(periods: readonly string[], byPeriod: ReadonlyMap<string, Sums>): Sums {
  const total = Object.fromEntries(SUMS.map((name) => [name, 0])) as Sums;
  for (const period of periods) {
    const sums = byPeriod.get(period);
    if (sums) for (const name of SUMS) total[name] += sums[name];
  }
  return total;
}

/**
 * `GET /analytics/first-day` (admin): the channel's first day with any figure, whatever the filters
 * (the dashboard's default range starts there), and the server's today. Empty rollup rows are deleted
 * (ingest.ts), so the first day rollup row is the first day with data; the primary key (grain, channel,
 * period, ...) makes it one index step.
 */
export async function firstDay(deps: AnalyticsReadDeps, query: FirstDayQuery): Promise<FirstDayResponse> {
  return { channel: query.channel, firstDay: await firstRollupDay(deps.db, query.channel), today: dayOf(deps.clock.now()) };
}

/**
 * `GET /analytics/cohorts` (admin): users by sign-up week or month, and how many were active on or after
 * day 7, 14, 21, 28 and 366 of their account. A retention figure is null until every member of the
 * cohort is that many days old (today by the server's clock, UTC).
 */
export async function cohorts(deps: AnalyticsReadDeps, query: CohortQuery): Promise<CohortResponse> {
  checkRange(query);
  const rows = await cohortCounts(deps.db, { grain: query.granularity, from: periodOf(query.granularity, query.from), to: query.to, filters: query });
  const today = dayOf(deps.clock.now());
  const byCohort = new Map<string, number[]>();
  for (const row of rows) {
    const levels = byCohort.get(row.cohort) ?? RETENTION_DAYS.map(() => 0).concat(0);
    levels[row.retained] = (levels[row.retained] ?? 0) + Number(row.users);
    byCohort.set(row.cohort, levels);
  }
  const list = periodsBetween(query.granularity, query.from, query.to).map((cohort) => {
    const levels = byCohort.get(cohort) ?? [];
    const users = levels.reduce((sum, n) => sum + n, 0);
    const lastSignup = periodEnd(query.granularity, cohort);
    return {
      cohort,
      users,
      retention: RETENTION_DAYS.map((day, index) => {
        if (addDays(lastSignup, day) > today) return { day, users: null, percent: null };
        const retained = levels.slice(index + 1).reduce((sum, n) => sum + n, 0);
        return { day, users: retained, percent: users ? Math.round((retained / users) * 1000) / 10 : null };
      }),
    };
  });
  return { granularity: query.granularity, cohorts: list };
}
