import { addDays as addCalendarDays, addYears, format, max, parseISO } from 'date-fns';
import { analyticsFilterFormSchema, daysInRange, isDay, MAX_PLAYED_MINUTES, utcDay, type FilterProblem } from '../../../../contract/analytics-form.js';
import { MAX_RANGE_DAYS, STORE_CHANNELS, SUSPICIOUS_FILTERS, type Channel, type Granularity, type SuspiciousFilter } from '../../../../contract/analytics-values.js';

// The filter bar's rules are the contract's form schema (contract/analytics-form.ts); its date rules with them.
export { daysInRange, isDay, MAX_PLAYED_MINUTES, utcDay, type FilterProblem };

/**
 * The filter bar of the analytics and cohort pages (spec section 3: a date range, the granularity,
 * 'contains suspicious data' and the minimum and maximum played time in minutes), kept in the address
 * so a reload or a shared link shows the same view. Only what differs from the default is written: the
 * plain address is the range from the first day with data (at most 12 months back) up to today (UTC),
 * issue 21 item 3. The page writes only valid filters there (useAnalyticsFilters.ts).
 */
export interface FilterInput<G extends Granularity = Granularity> {
  /** yyyy-MM-dd as typed (a date field gives '' while incomplete). */
  from: string;
  to: string;
  granularity: G;
  suspicious: SuspiciousFilter;
  /** Whole minutes as typed; '' for no bound. */
  minPlayed: string;
  maxPlayed: string;
}

/** A valid filter input, as the API takes it. */
export interface AnalyticsFilters<G extends Granularity = Granularity> {
  from: string;
  to: string;
  granularity: G;
  suspicious: SuspiciousFilter;
  minPlayed: number | null;
  maxPlayed: number | null;
}

/** The granularities a page offers and the one it starts with. */
export interface FilterOptions<G extends Granularity> {
  granularities: readonly G[];
  defaultGranularity: G;
}

export const FILTER_PARAMS = {
  from: 'from',
  to: 'to',
  granularity: 'granularity',
  suspicious: 'suspicious',
  minPlayed: 'minPlayed',
  maxPlayed: 'maxPlayed',
} as const;

/** The fields that can be wrong: the range and the played-time bounds (the choices cannot). */
export const FILTER_FIELDS = ['from', 'to', 'minPlayed', 'maxPlayed'] as const;
export type FilterField = (typeof FILTER_FIELDS)[number];
export type FilterProblems = Partial<Record<FilterField, FilterProblem>>;

const DAY_MS = 86_400_000;

export function addDays(day: string, days: number): string {
  return utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));
}

/** The one-click ranges above the figures (issue 21 item 3), each ending today. */
export const RANGE_PRESETS = ['last7Days', 'last30Days', 'last90Days', 'last12Months', 'all'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

const PRESET_DAYS = { last7Days: 7, last30Days: 30, last90Days: 90 } as const;

/** A day `years` calendar years and `days` days from `day` (date-fns: 29 February steps to the 28th). */
function shift(day: string, { years = 0, days = 0 }: { years?: number; days?: number }): string {
  return format(addCalendarDays(addYears(parseISO(day), years), days), 'yyyy-MM-dd');
}

/** The later of two days (yyyy-MM-dd). */
function later(a: string, b: string): string {
  return format(max([parseISO(a), parseISO(b)]), 'yyyy-MM-dd');
}

/**
 * A preset's range. 12 months: from the day after the same date a year ago. All: from the first day
 * with data, but no longer than the API's MAX_RANGE_DAYS; without data, the 12 months.
 */
export function presetRange(preset: RangePreset, today: string, firstDay: string | null): { from: string; to: string } {
  const twelveMonths = shift(today, { years: -1, days: 1 });
  if (preset === 'last12Months') return { from: twelveMonths, to: today };
  if (preset === 'all') {
    const start = firstDay !== null && firstDay <= today ? firstDay : twelveMonths;
    return { from: later(start, shift(today, { days: 1 - MAX_RANGE_DAYS })), to: today };
  }
  return { from: shift(today, { days: 1 - PRESET_DAYS[preset] }), to: today };
}

/** The preset whose range the input shows, if any (the first of RANGE_PRESETS when two agree). */
export function presetOf(input: Pick<FilterInput, 'from' | 'to'>, today: string, firstDay: string | null): RangePreset | null {
  return RANGE_PRESETS.find((preset) => {
    const range = presetRange(preset, today, firstDay);
    return range.from === input.from && range.to === input.to;
  }) ?? null;
}

/**
 * The default range: from the first day with data up to today, so four months of data fill the charts
 * instead of a year of which two thirds are zeros; at most the last 12 months, and the 12 months without data.
 */
export function defaultRange(today: string, firstDay: string | null): { from: string; to: string } {
  const twelveMonths = presetRange('last12Months', today, firstDay);
  return firstDay !== null && firstDay <= today ? { from: later(firstDay, twelveMonths.from), to: today } : twelveMonths;
}

export function defaultInput<G extends Granularity>(today: string, options: FilterOptions<G>, firstDay: string | null = null): FilterInput<G> {
  return {
    ...defaultRange(today, firstDay),
    granularity: options.defaultGranularity,
    suspicious: 'include',
    minPlayed: '',
    maxPlayed: '',
  };
}

function oneOf<T extends string>(values: readonly T[], text: string | null): T | null {
  return (values as readonly (string | null)[]).includes(text) ? (text as T) : null;
}

/** The input an address holds; missing or unknown choices fall back to the defaults. */
export function readFilterInput<G extends Granularity>(params: URLSearchParams, today: string, options: FilterOptions<G>, firstDay: string | null = null): FilterInput<G> {
  const defaults = defaultInput(today, options, firstDay);
  return {
    from: params.get(FILTER_PARAMS.from) ?? defaults.from,
    to: params.get(FILTER_PARAMS.to) ?? defaults.to,
    granularity: oneOf(options.granularities, params.get(FILTER_PARAMS.granularity)) ?? defaults.granularity,
    suspicious: oneOf(SUSPICIOUS_FILTERS, params.get(FILTER_PARAMS.suspicious)) ?? defaults.suspicious,
    minPlayed: (params.get(FILTER_PARAMS.minPlayed) ?? '').trim(),
    maxPlayed: (params.get(FILTER_PARAMS.maxPlayed) ?? '').trim(),
  };
}

/**
 * `params` with the input written into it (other parameters kept). A value equal to its default is left
 * out; a cleared date is written empty, so it stays cleared instead of coming back as the default.
 */
export function writeFilterInput<G extends Granularity>(
  params: URLSearchParams,
  input: FilterInput<G>,
  today: string,
  options: FilterOptions<G>,
  firstDay: string | null = null,
): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const name of Object.values(FILTER_PARAMS)) next.delete(name);
  const defaults = defaultInput(today, options, firstDay);
  for (const field of ['from', 'to', 'granularity', 'suspicious'] as const) {
    if (input[field] !== defaults[field]) next.set(FILTER_PARAMS[field], input[field]);
  }
  for (const field of ['minPlayed', 'maxPlayed'] as const) {
    const value = input[field].trim();
    if (value !== '') next.set(FILTER_PARAMS[field], value);
  }
  return next;
}

/**
 * Checks an input as the API would, by the filter bar's schema (contract/analytics-form.ts): real dates, the
 * start not after the end, at most MAX_RANGE_DAYS days, whole non-negative minutes, the minimum not above the
 * maximum. Returns the filters to ask for, or null and each field's problem.
 */
export function validateFilters<G extends Granularity>(input: FilterInput<G>): { filters: AnalyticsFilters<G> | null; problems: FilterProblems } {
  const parsed = analyticsFilterFormSchema.safeParse(input);
  if (parsed.success) return { filters: { ...parsed.data, granularity: input.granularity }, problems: {} };
  const problems: FilterProblems = {};
  for (const issue of parsed.error.issues) {
    const field = FILTER_FIELDS.find((name) => name === issue.path[0]);
    if (field && !problems[field]) problems[field] = issue.message as FilterProblem;
  }
  return { filters: null, problems };
}

/** The API's query string for the filters (and, on the analytics pages, the channel). */
export function filtersQuery(filters: AnalyticsFilters, channel?: Channel): string {
  const params = new URLSearchParams({ from: filters.from, to: filters.to, granularity: filters.granularity, suspicious: filters.suspicious });
  if (filters.minPlayed !== null) params.set('minPlayed', String(filters.minPlayed));
  if (filters.maxPlayed !== null) params.set('maxPlayed', String(filters.maxPlayed));
  if (channel) params.set('channel', channel);
  return params.toString();
}

/** The channel an analytics address shows: a store's entry of the admin menu (`/admin/analytics/steam`) or all. */
export function channelOfPath(path: string): Channel {
  const store = /^\/admin\/analytics\/([^/]+)\/?$/.exec(path)?.[1] ?? null;
  return oneOf(STORE_CHANNELS, store) ?? 'all';
}
