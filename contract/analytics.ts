import { z } from 'zod';
import { CHANNELS, GRANULARITIES, SUSPICIOUS_FILTERS } from './analytics-values.js';
import { EXPORT_FORMATS } from './licensing-values.js';

export { ACTIVATION_CHANNELS, type ActivationChannel } from './licensing.js';

/**
 * Usage analytics (issue "Usage analytics and cohorts"; spec sections 2, 3 and 9).
 *
 * Every figure is counted per user and period: a period is a UTC day, an ISO week (Monday to Sunday,
 * UTC) or a calendar month (UTC), named by the date it starts on (yyyy-MM-dd). A session belongs to the
 * period its start falls in. The filters pick user-periods:
 * - `suspicious`: 'include' every user-period, 'exclude' those containing a suspicious session, 'only'
 *   those containing one;
 * - `minPlayed` / `maxPlayed`: the user's played time in that period, in whole minutes (seconds / 60,
 *   rounded down), both bounds inclusive.
 * Cohorts use the same filters over each user's whole history instead of one period.
 */

export {
  CHANNELS,
  GRANULARITIES,
  MAX_RANGE_DAYS,
  RETENTION_DAYS,
  STORE_CHANNELS,
  SUSPICIOUS_FILTERS,
  type Channel,
  type Granularity,
  type StoreChannel,
  type SuspiciousFilter,
} from './analytics-values.js';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'yyyy-MM-dd');
const minutes = z.coerce.number().int().min(0).max(10_000_000);

export const analyticsFiltersSchema = z.object({
  /** First day of the range (UTC, inclusive). */
  from: day,
  /** Last day of the range (UTC, inclusive). */
  to: day,
  suspicious: z.enum(SUSPICIOUS_FILTERS).default('include'),
  minPlayed: minutes.optional(),
  maxPlayed: minutes.optional(),
});

export const analyticsQuerySchema = analyticsFiltersSchema.extend({
  granularity: z.enum(GRANULARITIES).default('day'),
  channel: z.enum(CHANNELS).default('all'),
});
export type AnalyticsQuery = z.infer<typeof analyticsQuerySchema>;

export const exportCountsSchema = z.object(Object.fromEntries(EXPORT_FORMATS.map((format) => [format, z.number().int()])) as Record<(typeof EXPORT_FORMATS)[number], z.ZodNumber>);
export type ExportCounts = z.infer<typeof exportCountsSchema>;

/** One period's figures (or the whole range's, for the KPIs). */
export const analyticsPointSchema = z.object({
  /** yyyy-MM-dd: the day, the Monday of the week, or the first of the month. */
  period: z.string(),
  /** Users who signed up in the period (for a store channel: first activated a computer through it). */
  newUsers: z.number().int(),
  /** Users with at least one session in the period. */
  activeUsers: z.number().int(),
  sessions: z.number().int(),
  sessionSeconds: z.number().int(),
  /** sessionSeconds / sessions, 0 without sessions. */
  averageSessionSeconds: z.number(),
  playedSeconds: z.number().int(),
  launches: z.number().int(),
  activations: z.number().int(),
  /** Licences, keys and subscription payments. */
  sales: z.number().int(),
  exports: exportCountsSchema,
});
export type AnalyticsPoint = z.infer<typeof analyticsPointSchema>;

/** The figures at the top of the dashboard, each compared with the previous period (issue 21 item 3). */
export const KPI_KEYS = ['newUsers', 'activeUsers', 'sessions', 'averageSessionSeconds', 'playedSeconds', 'exports', 'launches', 'activations', 'sales'] as const;
export type KpiKey = (typeof KPI_KEYS)[number];

/** One number per KPI: exports summed over the formats, activeUsers the mean per period. */
export const kpiFiguresSchema = z.object(Object.fromEntries(KPI_KEYS.map((key) => [key, z.number()])) as Record<KpiKey, z.ZodNumber>);
export type KpiFigures = z.infer<typeof kpiFiguresSchema>;

/**
 * The range's complete periods against the same number of periods just before the range (issue 21 item
 * 3). The incomplete periods (see `incompleteFrom`) are left out of both sides, so a week that has run
 * two days is never set against a whole one.
 */
export const analyticsComparisonSchema = z.object({
  /** How many periods each side covers: the range's complete periods. */
  periods: z.number().int(),
  /** First and last day (yyyy-MM-dd) of the complete periods compared. */
  from: z.string(),
  to: z.string(),
  /** First and last day of the previous periods. */
  previousFrom: z.string(),
  previousTo: z.string(),
  current: kpiFiguresSchema,
  previous: kpiFiguresSchema,
  /** Change in percent (one decimal) from previous to current; null when the previous figure is 0 (no data). */
  change: z.object(Object.fromEntries(KPI_KEYS.map((key) => [key, z.number().nullable()])) as Record<KpiKey, z.ZodNullable<z.ZodNumber>>),
});
export type AnalyticsComparison = z.infer<typeof analyticsComparisonSchema>;

export const analyticsResponseSchema = z.object({
  granularity: z.enum(GRANULARITIES),
  channel: z.enum(CHANNELS),
  /** One point per period of the range, empty periods included (zeros), oldest first. */
  series: z.array(analyticsPointSchema),
  /** Sums over the range; activeUsers here is the mean per period (distinct users do not add up). */
  totals: analyticsPointSchema.omit({ period: true }),
  /**
   * The first period of the series that is not over yet by the server's clock (it holds today, UTC, or
   * lies after it); it and every later period are incomplete. null when every period of the range is over.
   */
  incompleteFrom: z.string().nullable(),
  /** The KPIs of the complete periods against the previous periods; null when the range has no complete period. */
  comparison: analyticsComparisonSchema.nullable(),
});
export type AnalyticsResponse = z.infer<typeof analyticsResponseSchema>;

export const firstDayQuerySchema = z.object({ channel: z.enum(CHANNELS).default('all') });
export type FirstDayQuery = z.infer<typeof firstDayQuerySchema>;

/**
 * `GET /analytics/first-day`: where the channel's data starts, so the dashboard's default range starts
 * there instead of showing months of zeros (issue 21 item 3), and the server's today (UTC) that ranges end on.
 */
export const firstDayResponseSchema = z.object({
  channel: z.enum(CHANNELS),
  /** The earliest UTC day (yyyy-MM-dd) with any figure for the channel, whatever the filters; null without data. */
  firstDay: z.string().nullable(),
  /** Today by the server's clock (UTC, yyyy-MM-dd): the incomplete periods are counted from it. */
  today: z.string(),
});
export type FirstDayResponse = z.infer<typeof firstDayResponseSchema>;

export const cohortQuerySchema = analyticsFiltersSchema.extend({
  granularity: z.enum(['week', 'month']).default('week'),
});
export type CohortQuery = z.infer<typeof cohortQuerySchema>;

export const cohortRowSchema = z.object({
  /** yyyy-MM-dd: the Monday of the sign-up week or the first of the sign-up month. */
  cohort: z.string(),
  users: z.number().int(),
  /**
   * Per RETENTION_DAYS entry: users active on or after that many days from their sign-up day, and that
   * share of the cohort (0-100). null while not every member of the cohort is that many days old.
   */
  retention: z.array(z.object({ day: z.number().int(), users: z.number().int().nullable(), percent: z.number().nullable() })),
});
export const cohortResponseSchema = z.object({ granularity: z.enum(['week', 'month']), cohorts: z.array(cohortRowSchema) });
export type CohortResponse = z.infer<typeof cohortResponseSchema>;

/** What the dashboard's live counters receive on `GET /api/events` (admins only) as reports land. */
export const analyticsEventSchema = z.object({
  type: z.literal('analytics'),
  /** UTC day of the reports (yyyy-MM-dd). */
  day: z.string(),
  sessions: z.number().int(),
  playedSeconds: z.number().int(),
  exports: z.number().int(),
  launches: z.number().int(),
});
export type AnalyticsEvent = z.infer<typeof analyticsEventSchema>;
