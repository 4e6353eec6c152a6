import dayjs from 'dayjs';
import isoWeek from 'dayjs/plugin/isoWeek.js';
import utc from 'dayjs/plugin/utc.js';
import type { Granularity } from '../../../contract/analytics.js';

dayjs.extend(utc);
dayjs.extend(isoWeek);

/** Every figure is kept for each of these grains; a cohort is a sign-up week or month. */
export const GRAINS: readonly Granularity[] = ['day', 'week', 'month'];
export const COHORT_GRAINS = ['week', 'month'] as const;

const DAY = 'YYYY-MM-DD';

/** The UTC day of an instant, yyyy-MM-dd. */
export function dayOf(at: Date | string): string {
  return dayjs.utc(at).format(DAY);
}

/** The first day of the period (UTC day, ISO week from Monday, calendar month) holding `at`. */
export function periodOf(grain: Granularity, at: Date | string): string {
  const moment = dayjs.utc(at);
  if (grain === 'day') return moment.format(DAY);
  if (grain === 'week') return moment.startOf('isoWeek').format(DAY);
  return moment.startOf('month').format(DAY);
}

/** The last day of the period starting on `period`. */
export function periodEnd(grain: Granularity, period: string): string {
  const start = dayjs.utc(period);
  if (grain === 'day') return period;
  return (grain === 'week' ? start.add(6, 'day') : start.endOf('month')).format(DAY);
}

/** Every period overlapping the days `from`..`to` (inclusive), oldest first. */
export function periodsBetween(grain: Granularity, from: string, to: string): string[] {
  const periods: string[] = [];
  const unit = grain === 'day' ? 'day' : grain === 'week' ? 'week' : 'month';
  for (let period = dayjs.utc(periodOf(grain, from)); !period.isAfter(dayjs.utc(to)); period = period.add(1, unit)) periods.push(period.format(DAY));
  return periods;
}

/** Whole days from `from` to `to` (yyyy-MM-dd). */
export function daysBetween(from: string, to: string): number {
  return dayjs.utc(to).diff(dayjs.utc(from), 'day');
}

/** `day` plus `days` days. */
export function addDays(day: string, days: number): string {
  return dayjs.utc(day).add(days, 'day').format(DAY);
}
