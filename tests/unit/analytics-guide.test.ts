import { describe, expect, it } from 'vitest';
import { MAX_RANGE_DAYS, type AnalyticsPoint, type KpiFigures } from '../../contract/analytics.js';
import { EXPORT_FORMATS } from '../../contract/licensing.js';
import { formatChange } from '../../src/format/index.js';
import {
  daysInRange,
  defaultInput,
  defaultRange,
  presetOf,
  presetRange,
  RANGE_PRESETS,
  readFilterInput,
  validateFilters,
  writeFilterInput,
  type FilterOptions,
} from '../../src/pages/admin/analytics/filters.js';
import { compareKpis, comparedPeriods, incompleteFrom, kpiFigures, percentChange } from '../../server/modules/analytics/comparison.js';

/**
 * Issue 21 item 3, the pure rules: the presets and the default range from the first data, the filter
 * checks that decide what reaches the address, the incomplete periods and the change against the
 * previous periods.
 */
const TODAY = '2026-11-22'; // a Sunday
const DASHBOARD: FilterOptions<'day' | 'week' | 'month'> = { granularities: ['day', 'week', 'month'], defaultGranularity: 'week' };

describe('range presets', () => {
  it('7, 30 and 90 days end today and count today', () => {
    expect(presetRange('last7Days', TODAY, null)).toEqual({ from: '2026-11-16', to: TODAY });
    expect(daysInRange(presetRange('last30Days', TODAY, null).from, TODAY)).toBe(30);
    expect(presetRange('last90Days', TODAY, null)).toEqual({ from: '2026-08-25', to: TODAY });
  });

  it('12 months start the day after the same date a year ago (366 days over a 29 February)', () => {
    expect(presetRange('last12Months', TODAY, null)).toEqual({ from: '2025-11-23', to: TODAY });
    expect(daysInRange(presetRange('last12Months', '2024-03-15', null).from, '2024-03-15')).toBe(366);
    expect(presetRange('last12Months', '2024-02-29', null).from).toBe('2023-03-01');
  });

  it('all starts at the first data, but never further back than the API allows; without data it is 12 months', () => {
    expect(presetRange('all', TODAY, '2026-07-14')).toEqual({ from: '2026-07-14', to: TODAY });
    expect(presetRange('all', TODAY, '2019-01-01').from).toBe('2024-11-21');
    expect(daysInRange(presetRange('all', TODAY, '2019-01-01').from, TODAY)).toBe(MAX_RANGE_DAYS);
    expect(validateFilters({ ...defaultInput(TODAY, DASHBOARD), ...presetRange('all', TODAY, '2019-01-01') }).problems).toEqual({});
    expect(presetRange('all', TODAY, null)).toEqual(presetRange('last12Months', TODAY, null));
  });

  it('every preset is a valid range', () => {
    for (const preset of RANGE_PRESETS) expect(validateFilters({ ...defaultInput(TODAY, DASHBOARD), ...presetRange(preset, TODAY, '2026-01-05') }).filters).not.toBeNull();
  });

  it('the preset a range matches is pressed; a range typed by hand matches none', () => {
    expect(presetOf({ from: '2026-10-24', to: TODAY }, TODAY, '2026-01-05')).toBe('last30Days');
    expect(presetOf({ from: '2026-01-05', to: TODAY }, TODAY, '2026-01-05')).toBe('all');
    expect(presetOf({ from: '2026-10-24', to: '2026-11-21' }, TODAY, '2026-01-05')).toBeNull();
    // Data for less than a week: 'all' is shorter than 7 days and still its own.
    expect(presetOf({ from: '2026-11-20', to: TODAY }, TODAY, '2026-11-20')).toBe('all');
  });
});

describe('the default range starts at the first data', () => {
  it('four months of data: the four months, not a year of which two thirds are zeros', () => {
    expect(defaultRange(TODAY, '2026-07-25')).toEqual({ from: '2026-07-25', to: TODAY });
  });

  it('at most 12 months back; without data (or data only after today) the 12 months', () => {
    expect(defaultRange(TODAY, '2021-03-01')).toEqual({ from: '2025-11-23', to: TODAY });
    expect(defaultRange(TODAY, null)).toEqual({ from: '2025-11-23', to: TODAY });
    expect(defaultRange(TODAY, '2026-12-01')).toEqual({ from: '2025-11-23', to: TODAY });
  });

  it('the plain address is that default; a preset other than it is written', () => {
    const read = (query: string) => readFilterInput(new URLSearchParams(query), TODAY, DASHBOARD, '2026-07-25');
    const write = (patch: object) => writeFilterInput(new URLSearchParams(), { ...read(''), ...patch }, TODAY, DASHBOARD, '2026-07-25').toString();
    expect(read('')).toMatchObject({ from: '2026-07-25', to: TODAY });
    expect(write({})).toBe('');
    expect(write(presetRange('all', TODAY, '2026-07-25'))).toBe('');
    expect(write(presetRange('last30Days', TODAY, '2026-07-25'))).toBe('from=2026-10-24');
    expect(read('from=2026-10-24')).toMatchObject(presetRange('last30Days', TODAY, '2026-07-25'));
  });
});

describe('which filters are good (only those reach the address and the API)', () => {
  const base = defaultInput(TODAY, DASHBOARD, '2026-07-25');
  it.each([
    ['min played 100 with max 10', { minPlayed: '100', maxPlayed: '10' }, { minPlayed: 'minAboveMax' }],
    ['a start after the end', { from: '2026-11-23' }, { to: 'fromAfterTo' }],
    ['a date half typed', { to: '' }, { to: 'dateInvalid' }],
    ['letters for minutes', { maxPlayed: 'ten' }, { maxPlayed: 'minutesInvalid' }],
  ])('%s is named on its field and gives no filters', (_label, patch, problems) => {
    expect(validateFilters({ ...base, ...patch })).toEqual({ filters: null, problems });
  });
});

describe('the incomplete periods (by the server clock, UTC)', () => {
  const weeks = ['2026-11-02', '2026-11-09', '2026-11-16', '2026-11-23'];
  it("the week holding today is incomplete, even on its last day (today is not over); later ones too", () => {
    expect(incompleteFrom('week', weeks, TODAY)).toBe('2026-11-16');
    expect(incompleteFrom('week', weeks, '2026-11-16')).toBe('2026-11-16');
    expect(incompleteFrom('week', weeks, '2026-11-15')).toBe('2026-11-09');
    expect(incompleteFrom('day', ['2026-11-21', '2026-11-22'], TODAY)).toBe('2026-11-22');
    expect(incompleteFrom('month', ['2026-10-01', '2026-11-01'], '2026-12-01')).toBeNull();
  });

  it('compares the complete periods with as many just before the range', () => {
    expect(comparedPeriods('week', weeks, TODAY)).toEqual({
      complete: ['2026-11-02', '2026-11-09'],
      previous: ['2026-10-19', '2026-10-26'],
      from: '2026-11-02',
      to: '2026-11-15',
      previousFrom: '2026-10-19',
      previousTo: '2026-11-01',
    });
    expect(comparedPeriods('month', ['2026-01-01', '2026-02-01', '2026-03-01'], '2026-03-10')).toMatchObject({
      previous: ['2025-11-01', '2025-12-01'],
      previousTo: '2025-12-31',
      to: '2026-02-28',
    });
    expect(comparedPeriods('week', ['2026-11-16'], TODAY)).toBeNull();
  });
});

describe('the change against the previous periods', () => {
  it('is in percent with one decimal; nothing before gives null (shown as —), not infinity', () => {
    expect(percentChange(112, 100)).toBe(12);
    expect(percentChange(2, 3)).toBe(-33.3);
    expect(percentChange(0, 5)).toBe(-100);
    expect(percentChange(5, 5)).toBe(0);
    expect(percentChange(5, 0)).toBeNull();
    expect(percentChange(0, 0)).toBeNull();
  });

  it('a fall too small to show is 0, never -0 (toBe tells them apart, as the DuckDB comparison does)', () => {
    expect(percentChange(9999, 10000)).toBe(0);
    expect(Object.is(percentChange(9999, 10000), -0)).toBe(false);
  });

  const sum = (patch: Partial<Omit<AnalyticsPoint, 'period'>>): Omit<AnalyticsPoint, 'period'> => ({
    newUsers: 0,
    activeUsers: 0,
    sessions: 0,
    sessionSeconds: 0,
    averageSessionSeconds: 0,
    playedSeconds: 0,
    launches: 0,
    activations: 0,
    sales: 0,
    exports: Object.fromEntries(EXPORT_FORMATS.map((format) => [format, 0])) as AnalyticsPoint['exports'],
    ...patch,
  });

  it('the KPIs of summed periods: active users per period, the average length of the sums, exports over every format', () => {
    const [first, second] = EXPORT_FORMATS;
    const figures = kpiFigures(sum({ activeUsers: 9, sessions: 4, sessionSeconds: 1000, exports: { ...sum({}).exports, [first as string]: 2, [second as string]: 3 } }), 3);
    expect(figures).toMatchObject<Partial<KpiFigures>>({ activeUsers: 3, averageSessionSeconds: 250, exports: 5, sessions: 4 });
  });

  it('every KPI gets its change', () => {
    const current = kpiFigures(sum({ sessions: 30, sessionSeconds: 3000, activeUsers: 4, newUsers: 2 }), 2);
    const previous = kpiFigures(sum({ sessions: 20, sessionSeconds: 4000, activeUsers: 4 }), 2);
    expect(compareKpis(current, previous)).toEqual({
      newUsers: null,
      activeUsers: 0,
      sessions: 50,
      averageSessionSeconds: -50,
      playedSeconds: null,
      exports: null,
      launches: null,
      activations: null,
      sales: null,
    });
  });

  it('reads with its sign in either language; no sign for no change', () => {
    expect(formatChange(12, 'en')).toBe('+12%');
    expect(formatChange(-3.25, 'en')).toBe('-3.3%');
    expect(formatChange(12.5, 'de')).toMatch(/^\+12,5\s%$/);
    expect(formatChange(0, 'en')).toBe('0%');
  });
});
