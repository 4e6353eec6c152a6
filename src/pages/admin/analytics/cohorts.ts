import type { CohortResponse } from '../../../../contract/analytics.js';
import { RETENTION_DAYS } from '../../../../contract/analytics-values.js';
import type { CsvCell } from '../../../components/csv.js';

type Cohort = CohortResponse['cohorts'][number];

/** The heat map's palest and strongest backgrounds (white and MUI blue 300), for 0 % and 100 %. */
const PALE = [255, 255, 255] as const;
const STRONG = [100, 181, 246] as const;

/**
 * A retention cell's background: from white at 0 % to light blue at 100 %. Even the strongest shade
 * keeps the page's dark text above the 4.5:1 contrast of WCAG AA (tests/unit/analytics.test.ts).
 */
export function heatColor(percent: number): string {
  const share = Math.min(Math.max(percent, 0), 100) / 100;
  const [r, g, b] = PALE.map((pale, i) => Math.round(pale + ((STRONG[i] as number) - pale) * share)) as [number, number, number];
  return `rgb(${r}, ${g}, ${b})`;
}

/** A cohort's retention at one of RETENTION_DAYS; null figures while the cohort is too young. */
export function retentionAt(cohort: Cohort, day: number): { users: number | null; percent: number | null } {
  return cohort.retention.find((entry) => entry.day === day) ?? { users: null, percent: null };
}

/** The cohort table as CSV rows: cohort start, size, then users and percent for each retention day (empty when not yet known). */
export function cohortCsvRows(cohorts: readonly Cohort[]): CsvCell[][] {
  return cohorts.map((cohort) => [
    cohort.cohort,
    cohort.users,
    ...RETENTION_DAYS.flatMap((day) => {
      const { users, percent } = retentionAt(cohort, day);
      return [users, percent === null ? null : Math.round(percent * 100) / 100];
    }),
  ]);
}
