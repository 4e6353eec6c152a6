import { UTCDate } from '@date-fns/utc';
import { addDays as addDaysTo, addMonths, addWeeks, differenceInCalendarDays, endOfMonth, format, isAfter, startOfISOWeek, startOfMonth } from 'date-fns';
import type { Granularity } from '../../../contract/analytics.js';

/**
 * Periods of the analytics (spec section 9), all in UTC: date-fns on `UTCDate` (the date-fns team's UTC
 * date), so the server's own time zone never moves a day.
 */

/** Every figure is kept for each of these grains; a cohort is a sign-up week or month. */
export const GRAINS: readonly Granularity[] = ['day', 'week', 'month'];
export const COHORT_GRAINS = ['week', 'month'] as const;

const DAY = 'yyyy-MM-dd';

function utc(at: Date | string): UTCDate {
  return new UTCDate(typeof at === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(at) ? `${at}T00:00:00Z` : at);
}

/** The UTC day of an instant, yyyy-MM-dd. */
export function dayOf(at: Date | string): string {
  return format(utc(at), DAY);
}

/** The first day of the period (UTC day, ISO week from Monday, calendar month) holding `at`. */
export function periodOf(grain: Granularity, at: Date | string): string {
  const moment = utc(at);
  if (grain === 'day') return format(moment, DAY);
  if (grain === 'week') return format(startOfISOWeek(moment), DAY);
  return format(startOfMonth(moment), DAY);
}

/** The last day of the period starting on `period`. */
export function periodEnd(grain: Granularity, period: string): string {
  if (grain === 'day') return period;
  const start = utc(period);
  return format(grain === 'week' ? addDaysTo(start, 6) : endOfMonth(start), DAY);
}

const NEXT: Record<Granularity, (date: UTCDate) => UTCDate> = {
  day: (date) => addDaysTo(date, 1),
  week: (date) => addWeeks(date, 1),
  month: (date) => addMonths(date, 1),
};

/** Every period overlapping the days `from`..`to` (inclusive), oldest first. */
export function periodsBetween(grain: Granularity, from: string, to: string): string[] {
  const periods: string[] = [];
  const end = utc(to);
  for (let period = utc(periodOf(grain, from)); !isAfter(period, end); period = NEXT[grain](period)) periods.push(format(period, DAY));
  return periods;
}

/** Whole days from `from` to `to` (yyyy-MM-dd). */
export function daysBetween(from: string, to: string): number {
  return differenceInCalendarDays(utc(to), utc(from));
}

/** `day` plus `days` days. */
export function addDays(day: string, days: number): string {
  return format(addDaysTo(utc(day), days), DAY);
}

const SHIFT: Record<Granularity, (date: UTCDate, count: number) => UTCDate> = {
  day: (date, count) => addDaysTo(date, count),
  week: (date, count) => addWeeks(date, count),
  month: (date, count) => addMonths(date, count),
};

/** The period `count` periods after (negative: before) the period starting on `period`. */
export function shiftPeriod(grain: Granularity, period: string, count: number): string {
  return format(SHIFT[grain](utc(period), count), DAY);
}
