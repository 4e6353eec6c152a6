import { z } from 'zod/mini';
import { GRANULARITIES, MAX_RANGE_DAYS, SUSPICIOUS_FILTERS } from './analytics-values.js';

/**
 * The filter bar of the analytics and cohort pages as a zod schema for react-hook-form's resolver (zod's mini
 * build, as ./forms.ts), on the rules the API applies to its query (./analytics.ts, server/modules/analytics):
 * real dates, the start not after the end, at most MAX_RANGE_DAYS days, whole minutes from 0 to
 * MAX_PLAYED_MINUTES, the minimum not above the maximum. Apart from ./forms.ts: only the admin pages need it.
 *
 * The fields are as typed (text; '' for a bound not given). A problem's message is its name, which the filter
 * bar shows as `pages.analytics.problems.<name>`; every problem is named at once, one per field. The output is
 * what the API takes: the bounds as numbers, null when not given.
 */

/** The API's largest played-time bound (./analytics.ts). */
export const MAX_PLAYED_MINUTES = 10_000_000;

/** A problem's name, the key under `pages.analytics.problems` in locales/. */
export type FilterProblem = 'dateInvalid' | 'fromAfterTo' | 'rangeTooLong' | 'minutesInvalid' | 'minAboveMax';

const DAY_MS = 86_400_000;

/** Today's date in UTC (yyyy-MM-dd): periods and ranges are UTC days (./analytics.ts). */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** A real calendar date written yyyy-MM-dd (not 2026-02-30). */
export function isDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const time = Date.parse(`${text}T00:00:00Z`);
  return Number.isFinite(time) && utcDay(new Date(time)) === text;
}

/** Days from `from` to `to`, both counted: 1 for a single day. */
export function daysInRange(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** Whole minutes as typed: a number, null for none, or 'invalid'. */
function minutesOf(text: string): number | null | 'invalid' {
  const value = text.trim();
  if (value === '') return null;
  if (!/^\d{1,8}$/.test(value) || Number(value) > MAX_PLAYED_MINUTES) return 'invalid';
  return Number(value);
}

const problem = (name: FilterProblem) => name;
const day = z.string().check(z.refine(isDay, problem('dateInvalid')));
const minutes = z.string().check(z.refine((text) => minutesOf(text) !== 'invalid', problem('minutesInvalid')));

export const analyticsFilterFormSchema = z.pipe(
  z
    .object({
      from: day,
      to: day,
      granularity: z.enum(GRANULARITIES),
      suspicious: z.enum(SUSPICIOUS_FILTERS),
      minPlayed: minutes,
      maxPlayed: minutes,
    })
    .check(
      // Between fields, once each field is right on its own (a field's own problem is named first).
      z.superRefine((input, context) => {
        if (isDay(input.from) && isDay(input.to)) {
          if (input.from > input.to) context.addIssue({ code: 'custom', path: ['to'], message: problem('fromAfterTo') });
          else if (daysInRange(input.from, input.to) > MAX_RANGE_DAYS) context.addIssue({ code: 'custom', path: ['from'], message: problem('rangeTooLong') });
        }
        const least = minutesOf(input.minPlayed);
        const most = minutesOf(input.maxPlayed);
        if (typeof least === 'number' && typeof most === 'number' && least > most) {
          context.addIssue({ code: 'custom', path: ['minPlayed'], message: problem('minAboveMax') });
        }
      }),
    ),
  z.transform((input) => ({
    from: input.from,
    to: input.to,
    granularity: input.granularity,
    suspicious: input.suspicious,
    minPlayed: minutesOf(input.minPlayed) as number | null,
    maxPlayed: minutesOf(input.maxPlayed) as number | null,
  })),
);
export type AnalyticsFilterFormInput = z.input<typeof analyticsFilterFormSchema>;
export type AnalyticsFilterFormOutput = z.output<typeof analyticsFilterFormSchema>;
