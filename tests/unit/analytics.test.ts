import { describe, expect, it } from 'vitest';
import { EXPORT_FORMATS } from '../../contract/licensing.js';
import { MAX_RANGE_DAYS, RETENTION_DAYS, type AnalyticsEvent, type AnalyticsPoint, type CohortResponse } from '../../contract/analytics.js';
import { CHARTS, chartCsvRows } from '../../src/pages/admin/analytics/charts.js';
import { cohortCsvRows, heatColor } from '../../src/pages/admin/analytics/cohorts.js';
import {
  addDays,
  channelOfPath,
  daysInRange,
  defaultInput,
  filtersQuery,
  isDay,
  readFilterInput,
  validateFilters,
  writeFilterInput,
  type FilterInput,
  type FilterOptions,
} from '../../src/pages/admin/analytics/filters.js';
import { formatValue, periodLabel } from '../../src/pages/admin/analytics/format.js';
import { kpisOf, liveCounts, liveReducer, liveScope, NO_LIVE, type LiveScope, type LiveState } from '../../src/pages/admin/analytics/live.js';

const TODAY = '2026-11-22';
const DASHBOARD: FilterOptions<'day' | 'week' | 'month'> = { granularities: ['day', 'week', 'month'], defaultGranularity: 'week' };
const COHORTS: FilterOptions<'week' | 'month'> = { granularities: ['week', 'month'], defaultGranularity: 'week' };

const read = (query: string, options = DASHBOARD) => readFilterInput(new URLSearchParams(query), TODAY, options);
const write = (input: FilterInput, query = '') => writeFilterInput(new URLSearchParams(query), input, TODAY, DASHBOARD).toString();
const DEFAULTS = defaultInput(TODAY, DASHBOARD);

describe('dates of the filter bar (UTC days)', () => {
  it.each(['2026-11-22', '2024-02-29', '2000-01-01'])('%s is a day', (day) => expect(isDay(day)).toBe(true));
  it.each(['', '2026-13-01', '2026-02-30', '2025-02-29', '22.11.2026', '2026-1-5', '2026-11-22T00:00'])('%j is not', (text) => expect(isDay(text)).toBe(false));

  it('counts both ends of a range and steps over month and leap days', () => {
    expect(daysInRange('2026-11-22', '2026-11-22')).toBe(1);
    expect(daysInRange('2024-01-01', '2024-12-31')).toBe(366);
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
});

describe('the filters in the address (reload and shared links)', () => {
  it('the plain address is the last 365 days up to today, by week, everything included', () => {
    expect(read('')).toEqual({ from: '2025-11-23', to: TODAY, granularity: 'week', suspicious: 'include', minPlayed: '', maxPlayed: '' });
    expect(daysInRange(DEFAULTS.from, DEFAULTS.to)).toBe(365);
    expect(write(DEFAULTS)).toBe('');
  });

  it('every field is written and read back', () => {
    const input: FilterInput = { from: '2026-01-01', to: '2026-03-31', granularity: 'month', suspicious: 'only', minPlayed: '30', maxPlayed: '600' };
    const query = write(input);
    expect(query).toBe('from=2026-01-01&to=2026-03-31&granularity=month&suspicious=only&minPlayed=30&maxPlayed=600');
    expect(read(query)).toEqual(input);
  });

  it('a cleared date stays cleared after a reload instead of coming back as the default', () => {
    const input = { ...DEFAULTS, from: '' };
    expect(write(input)).toBe('from=');
    expect(read(write(input))).toEqual(input);
  });

  it('an invalid entry is kept as typed, so the reload shows it with its message', () => {
    const input = { ...DEFAULTS, from: '2026-12-01', minPlayed: '90', maxPlayed: '10' };
    expect(read(write(input))).toEqual(input);
  });

  it.each([
    ['an unknown granularity', 'granularity=year', { granularity: 'week' }],
    ['an unknown suspicious choice', 'suspicious=maybe', { suspicious: 'include' }],
    ['spaces around minutes', 'minPlayed=%2015%20', { minPlayed: '15' }],
  ])('%s falls back or is tidied', (_label, query, expected) => {
    expect(read(query)).toEqual({ ...DEFAULTS, ...expected });
  });

  it('the cohort page offers weeks and months only: a day in the address is its default week', () => {
    expect(read('granularity=day', COHORTS).granularity).toBe('week');
    expect(read('granularity=month', COHORTS).granularity).toBe('month');
  });

  it('other parameters of the address are kept; the filters replace their own', () => {
    expect(write({ ...DEFAULTS, suspicious: 'exclude' }, 'suspicious=only&utm=mail')).toBe('utm=mail&suspicious=exclude');
  });
});

describe('checking the filters before asking the API', () => {
  const valid = (patch: Partial<FilterInput>) => validateFilters({ ...DEFAULTS, ...patch });

  it('the defaults are valid and become the API filters', () => {
    expect(valid({})).toEqual({
      filters: { from: '2025-11-23', to: TODAY, granularity: 'week', suspicious: 'include', minPlayed: null, maxPlayed: null },
      problems: {},
    });
  });

  it('minutes become numbers; equal bounds are fine (both inclusive)', () => {
    expect(valid({ minPlayed: '0', maxPlayed: '0' }).filters).toMatchObject({ minPlayed: 0, maxPlayed: 0 });
    expect(valid({ minPlayed: '15' }).filters).toMatchObject({ minPlayed: 15, maxPlayed: null });
  });

  it.each([
    ['a start after the end', { from: '2026-11-23' }, { to: 'fromAfterTo' }],
    ['a missing start', { from: '' }, { from: 'dateInvalid' }],
    ['an impossible end', { to: '2026-02-30' }, { to: 'dateInvalid' }],
    ['a range over the API limit', { from: addDays(TODAY, -MAX_RANGE_DAYS) }, { from: 'rangeTooLong' }],
    ['a minimum above the maximum', { minPlayed: '61', maxPlayed: '60' }, { minPlayed: 'minAboveMax' }],
    ['negative minutes', { minPlayed: '-5' }, { minPlayed: 'minutesInvalid' }],
    ['fractional minutes', { maxPlayed: '1.5' }, { maxPlayed: 'minutesInvalid' }],
    ['minutes over the API limit', { maxPlayed: '10000001' }, { maxPlayed: 'minutesInvalid' }],
  ])('%s is named and nothing is asked', (_label, patch, problems) => {
    expect(valid(patch)).toEqual({ filters: null, problems });
  });

  it('the longest range the API takes is allowed', () => {
    expect(valid({ from: addDays(TODAY, 1 - MAX_RANGE_DAYS) }).problems).toEqual({});
  });

  it('every problem is named at once', () => {
    expect(valid({ from: '2027-01-01', minPlayed: '9', maxPlayed: '8' }).problems).toEqual({ to: 'fromAfterTo', minPlayed: 'minAboveMax' });
  });

  it('the API query carries the filters, the bounds only when set, and the channel', () => {
    const { filters } = valid({ minPlayed: '5' });
    expect(filters && filtersQuery(filters, 'steam')).toBe('from=2025-11-23&to=2026-11-22&granularity=week&suspicious=include&minPlayed=5&channel=steam');
    expect(filters && filtersQuery({ ...filters, minPlayed: null })).toBe('from=2025-11-23&to=2026-11-22&granularity=week&suspicious=include');
  });
});

describe('the channel of an analytics address', () => {
  it.each([
    ['/admin/analytics', 'all'],
    ['/admin/analytics/steam', 'steam'],
    ['/admin/analytics/metapc-store', 'metapc-store'],
    ['/admin/analytics/perpetual-2024/', 'perpetual-2024'],
    ['/admin/analytics/direct', 'all'],
    ['/admin/analytics/unknown', 'all'],
  ])('%s shows %s', (path, channel) => expect(channelOfPath(path)).toBe(channel));
});

function event(day: string, sessions = 1, playedSeconds = 600, exports = 2, launches = 1): AnalyticsEvent {
  return { type: 'analytics', day, sessions, playedSeconds, exports, launches };
}

describe('the live counters', () => {
  const filters = { from: '2026-11-01', to: '2026-11-30', granularity: 'day' as const, suspicious: 'include' as const, minPlayed: null, maxPlayed: null };
  const scope: LiveScope = liveScope(filters, 'all');
  const apply = (state: LiveState, ...events: AnalyticsEvent[]) => events.reduce((s, e) => liveReducer(s, { type: 'event', event: e, scope }), state);

  it('adds the reports of each event whose day is in the range, ends included', () => {
    const state = apply(NO_LIVE, event('2026-11-01'), event('2026-11-30', 2, 60, 0, 0), event('2026-11-15', 3, 30, 1, 2));
    expect(liveCounts(state)).toEqual({ sessions: 6, playedSeconds: 690, exports: 3, launches: 3 });
  });

  it('ignores events of days outside the range', () => {
    expect(liveCounts(apply(NO_LIVE, event('2026-10-31'), event('2026-12-01')))).toEqual({ sessions: 0, playedSeconds: 0, exports: 0, launches: 0 });
  });

  it.each([
    ['a store channel', liveScope(filters, 'steam')],
    ['suspicious only', liveScope({ ...filters, suspicious: 'only' }, 'all')],
    ['suspicious excluded', liveScope({ ...filters, suspicious: 'exclude' }, 'all')],
    ['a minimum played time', liveScope({ ...filters, minPlayed: 0 }, 'all')],
    ['a maximum played time', liveScope({ ...filters, maxPlayed: 60 }, 'all')],
  ])('under %s an event is left to the refetch (it cannot tell whether the filter takes it)', (_label, filtered) => {
    expect(liveReducer(NO_LIVE, { type: 'event', event: event('2026-11-10'), scope: filtered })).toBe(NO_LIVE);
  });

  it('figures fetched after event n hold it: settling drops events up to n and keeps later ones', () => {
    const before = apply(NO_LIVE, event('2026-11-10', 1), event('2026-11-10', 2));
    const upTo = before.seq;
    const after = apply(before, event('2026-11-11', 4));
    const settled = liveReducer(after, { type: 'settled', seq: upTo });
    expect(liveCounts(settled).sessions).toBe(4);
    expect(liveCounts(liveReducer(settled, { type: 'settled', seq: settled.seq })).sessions).toBe(0);
  });

  it('new filters start from their own figures', () => {
    const state = apply(NO_LIVE, event('2026-11-10'));
    expect(liveCounts(liveReducer(state, { type: 'reset' })).sessions).toBe(0);
    expect(liveReducer(NO_LIVE, { type: 'reset' })).toBe(NO_LIVE);
  });

  it('the KPIs are the totals plus the live reports; exports add up over the formats', () => {
    const totals: Omit<AnalyticsPoint, 'period'> = {
      newUsers: 5,
      activeUsers: 2.5,
      sessions: 10,
      sessionSeconds: 6000,
      averageSessionSeconds: 600,
      playedSeconds: 5000,
      launches: 7,
      activations: 3,
      sales: 1,
      exports: { obj: 1, stl: 2, fbx: 0, gltf: 0, glb: 0, ply: 0, usdz: 0, '3mf': 4 },
    };
    expect(kpisOf(totals, { sessions: 2, playedSeconds: 100, exports: 3, launches: 1 })).toEqual({
      newUsers: 5,
      activeUsers: 2.5,
      sessions: 12,
      averageSessionSeconds: 600,
      playedSeconds: 5100,
      exports: 10,
      launches: 8,
      activations: 3,
      sales: 1,
    });
  });
});

function point(period: string, patch: Partial<AnalyticsPoint> = {}): AnalyticsPoint {
  return {
    period,
    newUsers: 1,
    activeUsers: 2,
    sessions: 3,
    sessionSeconds: 3 * 1234,
    averageSessionSeconds: 1234,
    playedSeconds: 5400,
    launches: 4,
    activations: 5,
    sales: 6,
    exports: { obj: 1, stl: 2, fbx: 3, gltf: 4, glb: 5, ply: 6, usdz: 7, '3mf': 8 },
    ...patch,
  };
}

describe('the charts, their tables and CSV files', () => {
  const spec = (id: string) => CHARTS.find((chart) => chart.id === id) as (typeof CHARTS)[number];

  it('cover new users, active users, sessions with their length, played time, exports by format, activations and sales', () => {
    expect(CHARTS.map((chart) => chart.id)).toEqual(['new-users', 'active-users', 'sessions', 'played-time', 'exports', 'activations-sales']);
    expect(spec('exports').series.map((series) => series.id)).toEqual([...EXPORT_FORMATS]);
    expect(spec('exports').stacked).toBe(true);
  });

  it('a CSV row is the period and each series in its unit, rounded to two decimals', () => {
    const points = [point('2026-11-16'), point('2026-11-23', { sessions: 0, averageSessionSeconds: 0 })];
    expect(chartCsvRows(spec('sessions'), points)).toEqual([
      ['2026-11-16', 3, 20.57],
      ['2026-11-23', 0, 0],
    ]);
    expect(chartCsvRows(spec('played-time'), points)[0]).toEqual(['2026-11-16', 1.5]);
    expect(chartCsvRows(spec('exports'), points)[0]).toEqual(['2026-11-16', 1, 2, 3, 4, 5, 6, 7, 8]);
  });
});

describe('the cohort heat map', () => {
  /** WCAG relative luminance of an `rgb(r, g, b)` colour. */
  function luminance(color: string): number {
    const [r, g, b] = (color.match(/\d+/g) ?? []).map(Number).map((channel) => {
      const c = channel / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }
  // MUI's primary text: black at 87 % over the cell, at worst as light as this grey.
  const TEXT = luminance('rgb(33, 33, 33)');

  it.each([0, 25, 50, 75, 100])('the page text on a %i %% cell keeps a contrast of at least 4.5:1', (percent) => {
    expect((luminance(heatColor(percent)) + 0.05) / (TEXT + 0.05)).toBeGreaterThanOrEqual(4.5);
  });

  it('a higher share is a stronger shade; out-of-range shares are clamped', () => {
    expect(luminance(heatColor(80))).toBeLessThan(luminance(heatColor(20)));
    expect(heatColor(0)).toBe('rgb(255, 255, 255)');
    expect(heatColor(-5)).toBe(heatColor(0));
    expect(heatColor(140)).toBe(heatColor(100));
  });

  it('a CSV row is the cohort, its size, then users and percent per retention day; empty while too young', () => {
    const cohorts: CohortResponse['cohorts'] = [
      {
        cohort: '2026-11-02',
        users: 40,
        retention: RETENTION_DAYS.map((day) => (day <= 14 ? { day, users: 10, percent: 25 } : { day, users: null, percent: null })),
      },
    ];
    expect(cohortCsvRows(cohorts)).toEqual([['2026-11-02', 40, 10, 25, 10, 25, null, null, null, null, null, null]]);
  });
});

describe('figures for the reader', () => {
  it('names periods with the spec date patterns in English and the German order in German', () => {
    expect(periodLabel('2026-11-03', 'day', 'en')).toBe('Nov 3, 2026');
    expect(periodLabel('2026-11-03', 'week', 'de')).toBe('3. Nov. 2026');
    expect(periodLabel('2026-11-01', 'month', 'de')).toBe('2026-11');
  });

  it('formats counts, minutes and hours for the locale', () => {
    expect(formatValue(1234, 'count', 'en')).toBe('1,234');
    expect(formatValue(1234, 'count', 'de')).toBe('1.234');
    expect(formatValue(0.019, 'mean', 'en')).toBe('0.02');
    expect(formatValue(20.5, 'minutes', 'en')).toBe('20.5 min');
    expect(formatValue(1.5, 'hours', 'de')).toMatch(/^1,5\sStd\.$/);
  });
});
