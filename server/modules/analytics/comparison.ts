import { KPI_KEYS, type AnalyticsComparison, type AnalyticsPoint, type Granularity, type KpiFigures } from '../../../contract/analytics.js';
import { addDays, periodEnd, shiftPeriod } from './periods.js';

/**
 * What the dashboard compares (issue 21 item 3): the range's complete periods against as many periods
 * just before them. A period is complete once its last day is over by the server's clock; the current
 * week (month, day) is not, and neither is any later one, so they stay out of both sides.
 */

/** The first of `periods` (oldest first) whose last day is today or later, or null when all are over. */
export function incompleteFrom(grain: Granularity, periods: readonly string[], today: string): string | null {
  return periods.find((period) => periodEnd(grain, period) >= today) ?? null;
}

/** The periods compared: the complete ones of the range, and the same number just before the range. */
export function comparedPeriods(grain: Granularity, periods: readonly string[], today: string) {
  const incomplete = incompleteFrom(grain, periods, today);
  const complete = incomplete === null ? periods : periods.slice(0, periods.indexOf(incomplete));
  const first = complete[0];
  const last = complete[complete.length - 1];
  if (first === undefined || last === undefined) return null;
  const previousFirst = shiftPeriod(grain, first, -complete.length);
  return {
    complete,
    previous: Array.from({ length: complete.length }, (_, index) => shiftPeriod(grain, previousFirst, index)),
    from: first,
    to: periodEnd(grain, last),
    previousFrom: previousFirst,
    previousTo: addDays(first, -1),
  };
}

/** Summed figures of some periods (AnalyticsPoint without its period) as the KPIs: exports over the formats, active users per period. */
export function kpiFigures(sum: Omit<AnalyticsPoint, 'period'>, periods: number): KpiFigures {
  return {
    newUsers: sum.newUsers,
    activeUsers: sum.activeUsers / Math.max(1, periods),
    sessions: sum.sessions,
    averageSessionSeconds: sum.sessions ? sum.sessionSeconds / sum.sessions : 0,
    playedSeconds: sum.playedSeconds,
    exports: Object.values(sum.exports).reduce((total, count) => total + count, 0),
    launches: sum.launches,
    activations: sum.activations,
    sales: sum.sales,
  };
}

/**
 * The change from `previous` to `current` in percent, one decimal; null when there is nothing to compare
 * with (previous 0). A fall too small to show (-0.04 %) rounds to 0, not to -0: JSON writes both as 0,
 * but a comparison in-process (bench/analytics.ts against DuckDB) told them apart.
 */
export function percentChange(current: number, previous: number): number | null {
  if (previous === 0) return null;
  const change = Math.round(((current - previous) / previous) * 1000) / 10;
  return change === 0 ? 0 : change;
}

export function compareKpis(current: KpiFigures, previous: KpiFigures): AnalyticsComparison['change'] {
  return Object.fromEntries(KPI_KEYS.map((key) => [key, percentChange(current[key], previous[key])])) as AnalyticsComparison['change'];
}
