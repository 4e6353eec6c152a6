import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GRANULARITIES,
  RETENTION_DAYS,
  type AnalyticsPoint,
  type AnalyticsResponse,
  type CohortResponse,
  type Granularity,
  type SuspiciousFilter,
} from '../../contract/analytics.js';
import { EXPORT_FORMATS, type ExportFormat } from '../../contract/licensing.js';
import { periodEnd, periodOf, periodsBetween } from '../../server/modules/analytics/periods.js';
import { rebuildAnalytics } from '../../server/modules/analytics/rebuild.js';
import { call } from '../fixtures/paddle.js';
import { DATABASE_KINDS, signIn, startTestServer, type TestServer } from '../fixtures/server.js';
import { readUntil } from '../fixtures/sse.js';
import { describeEachDatabase } from './describe-each-database.js';


/**
 * Usage analytics: reports from the desktop API rolled up as they arrive. The property test sends random
 * users, sessions (day edges included), exports and launches, some of them twice, then asks the API
 * for every granularity under random filters and compares with a recount of the reports made here,
 * from the definitions in contract/analytics.ts, without the rollups.
 */

const DAY_MS = 86_400_000;
const WINDOW_DAYS = 42;

/** Each property run gets its own six weeks, years apart, so runs never see each other's figures. */
let windows = 0;
/** The UTC day (yyyy-MM-dd) of a moment. */
const utcDay = (at: number | string | Date) => new Date(at).toISOString().slice(0, 10);
/** Midnight UTC of the day of a moment, in milliseconds. */
const dayStart = (at: number | string | Date) => Date.parse(utcDay(at));

function nextWindow() {
  const year = 2040 + 3 * windows++;
  const tenth = Date.UTC(year, 0, 10);
  const start = tenth - new Date(tenth).getUTCDay() * DAY_MS + DAY_MS; // the Monday of that week
  return { start, from: utcDay(start), to: utcDay(start + (WINDOW_DAYS - 1) * DAY_MS) };
}

interface Session {
  id: string;
  at: number;
  lengthSeconds: number;
  playedSeconds: number;
  suspicious: boolean;
}
interface ModelUser {
  id: string;
  signupAt: number;
  channel: string;
  sessions: Session[];
  exports: { id: string; at: number; format: ExportFormat }[];
  launches: { id: string; at: number }[];
}

/** The figures a user-period has, counted from the reports (the same names as the API's points). */
interface Tally {
  isNew: boolean;
  sessions: number;
  sessionSeconds: number;
  playedSeconds: number;
  suspicious: boolean;
  launches: number;
  activations: number;
  exports: Record<ExportFormat, number>;
}

const emptyTally = (): Tally => ({
  isNew: false,
  sessions: 0,
  sessionSeconds: 0,
  playedSeconds: 0,
  suspicious: false,
  launches: 0,
  activations: 0,
  exports: Object.fromEntries(EXPORT_FORMATS.map((format) => [format, 0])) as Record<ExportFormat, number>,
});

interface Filters {
  suspicious: SuspiciousFilter;
  minPlayed?: number | undefined;
  maxPlayed?: number | undefined;
}

const passes = (filters: Filters, suspicious: boolean, playedSeconds: number) => {
  const minutes = Math.floor(playedSeconds / 60);
  if (filters.suspicious === 'exclude' && suspicious) return false;
  if (filters.suspicious === 'only' && !suspicious) return false;
  if (filters.minPlayed !== undefined && minutes < filters.minPlayed) return false;
  if (filters.maxPlayed !== undefined && minutes > filters.maxPlayed) return false;
  return true;
};

/** What GET /analytics should answer, recounted from the reports. */
function recount(users: ModelUser[], query: Filters & { from: string; to: string; granularity: Granularity; channel: string }): Pick<AnalyticsResponse, 'series'> {
  const grain = query.granularity;
  const tallies = new Map<string, Tally>();
  const tally = (userId: string, at: number) => {
    const key = `${userId}|${periodOf(grain, new Date(at))}`;
    const found = tallies.get(key) ?? emptyTally();
    tallies.set(key, found);
    return found;
  };
  for (const user of users) {
    const inChannel = query.channel === 'all' || query.channel === user.channel;
    if (!inChannel) continue;
    // New to 'all' at sign-up; new to a store channel at the first activation through it (at sign-up here).
    tally(user.id, user.signupAt).isNew = true;
    tally(user.id, user.signupAt).activations += 1;
    for (const session of user.sessions) {
      const t = tally(user.id, session.at);
      t.sessions += 1;
      t.sessionSeconds += session.lengthSeconds;
      t.playedSeconds += session.playedSeconds;
      t.suspicious ||= session.suspicious;
    }
    for (const exported of user.exports) tally(user.id, exported.at).exports[exported.format] += 1;
    for (const launch of user.launches) tally(user.id, launch.at).launches += 1;
  }
  const series = periodsBetween(grain, query.from, query.to).map((period): AnalyticsPoint => {
    const point: AnalyticsPoint = {
      period,
      newUsers: 0,
      activeUsers: 0,
      sessions: 0,
      sessionSeconds: 0,
      averageSessionSeconds: 0,
      playedSeconds: 0,
      launches: 0,
      activations: 0,
      sales: 0,
      exports: emptyTally().exports,
    };
    for (const [key, t] of tallies) {
      if (key.split('|')[1] !== period || !passes(query, t.suspicious, t.playedSeconds)) continue;
      point.newUsers += t.isNew ? 1 : 0;
      point.activeUsers += t.sessions > 0 ? 1 : 0;
      point.sessions += t.sessions;
      point.sessionSeconds += t.sessionSeconds;
      point.playedSeconds += t.playedSeconds;
      point.launches += t.launches;
      point.activations += t.activations;
      for (const format of EXPORT_FORMATS) point.exports[format] += t.exports[format];
    }
    point.averageSessionSeconds = point.sessions ? point.sessionSeconds / point.sessions : 0;
    return point;
  });
  return { series };
}

/** What GET /analytics/cohorts should answer, recounted from each user's whole history. */
function recountCohorts(users: ModelUser[], query: Filters & { from: string; to: string; granularity: 'week' | 'month' }, today: string): CohortResponse['cohorts'] {
  return periodsBetween(query.granularity, query.from, query.to).map((cohort) => {
    const members = users.filter((user) => {
      const played = user.sessions.reduce((sum, s) => sum + s.playedSeconds, 0);
      return periodOf(query.granularity, new Date(user.signupAt)) === cohort && passes(query, user.sessions.some((s) => s.suspicious), played);
    });
    const lastSignup = periodEnd(query.granularity, cohort);
    return {
      cohort,
      users: members.length,
      retention: RETENTION_DAYS.map((day) => {
        if (utcDay(Date.parse(lastSignup) + day * DAY_MS) > today) return { day, users: null, percent: null };
        const retained = members.filter((user) => {
          const signup = dayStart(user.signupAt);
          return user.sessions.some((s) => Math.floor((dayStart(s.at) - signup) / DAY_MS) >= day);
        }).length;
        return { day, users: retained, percent: members.length ? Math.round((retained / members.length) * 1000) / 10 : null };
      }),
    };
  });
}

async function adminToken(server: TestServer) {
  const admin = await server.createUser({ roles: ['user', 'admin'] });
  return (await signIn(server, admin.email, admin.password)).access_token as string;
}

/** Signs a user up at `at`, activates one computer (through `channel`, or the website's 'direct'), returns its device token. */
async function deviceUser(server: TestServer, at: number, channel: string) {
  server.clock.set(new Date(at));
  const user = await server.createUser();
  const { access_token: token } = await signIn(server, user.email, user.password);
  const activated = await call(server, 'POST', '/api/desktop/activate', token, {
    payload: { computerId: `pc-${randomUUID()}`, name: 'Workstation', ...(channel === 'direct' ? {} : { channel }) },
  });
  expect(activated.statusCode, activated.body).toBe(200);
  return { id: user.id, deviceToken: activated.json().deviceToken as string };
}

const sessionPayload = (s: Session) => ({
  id: s.id,
  startedAt: new Date(s.at).toISOString(),
  endedAt: new Date(s.at + s.lengthSeconds * 1000).toISOString(),
  lengthSeconds: s.lengthSeconds,
  playedSeconds: s.playedSeconds,
  suspicious: s.suspicious,
});

const query = (params: Record<string, string | number | undefined>) =>
  new URLSearchParams(Object.entries(params).flatMap(([key, value]) => (value === undefined ? [] : [[key, String(value)]]))).toString();

/** An offset into the window (ms): any minute, or a millisecond either side of a midnight (UTC). */
const instant = () =>
  fc.oneof(
    fc.integer({ min: 0, max: WINDOW_DAYS * 1440 - 1 }).map((minute) => minute * 60_000),
    fc.record({ day: fc.integer({ min: 1, max: WINDOW_DAYS - 1 }), before: fc.boolean() }).map(({ day, before }) => day * DAY_MS - (before ? 1 : 0)),
  );

const userArbitrary = () =>
  fc.record({
    signupAt: instant(),
    channel: fc.constantFrom('direct', 'steam', 'viveport', 'android', 'metapc-store'),
    sessions: fc.array(
      fc.record({
        at: instant(),
        lengthSeconds: fc.integer({ min: 0, max: 5 * 3600 }),
        playedShare: fc.integer({ min: 0, max: 100 }),
        suspicious: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
      }),
      { maxLength: 7 },
    ),
    exports: fc.array(fc.record({ at: instant(), format: fc.constantFrom(...EXPORT_FORMATS) }), { maxLength: 3 }),
    launches: fc.array(instant(), { maxLength: 2 }),
  });

const filtersArbitrary = fc
  .record({
    suspicious: fc.constantFrom<SuspiciousFilter>('include', 'exclude', 'only'),
    minPlayed: fc.option(fc.integer({ min: 0, max: 300 }), { nil: undefined }),
    span: fc.option(fc.integer({ min: 0, max: 300 }), { nil: undefined }),
  })
  .map(({ suspicious, minPlayed, span }) => ({ suspicious, minPlayed, maxPlayed: span === undefined ? undefined : (minPlayed ?? 0) + span }));

describeEachDatabase('usage analytics', (server) => {
  it('rollups equal a recount of the reports, for every granularity and random filters; repeated reports count once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(userArbitrary(), { minLength: 1, maxLength: 4 }),
        fc.array(filtersArbitrary, { minLength: 2, maxLength: 2 }),
        async (drawn, filters) => {
          // A window of its own for every execution, shrinking included: the rollups are shared.
          const window = nextWindow();
          const users: ModelUser[] = [];
          for (const draw of drawn) {
            const signupAt = window.start + draw.signupAt;
            const { id, deviceToken } = await deviceUser(server(), signupAt, draw.channel);
            const sessions = draw.sessions.map((s) => ({
              id: randomUUID(),
              at: window.start + s.at,
              lengthSeconds: s.lengthSeconds,
              playedSeconds: Math.floor((s.lengthSeconds * s.playedShare) / 100),
              suspicious: s.suspicious,
            }));
            const exports = draw.exports.map((e) => ({ id: randomUUID(), at: window.start + e.at, format: e.format }));
            const launches = draw.launches.map((at) => ({ id: randomUUID(), at: window.start + at }));
            const batch = {
              sessions: sessions.map(sessionPayload),
              exports: exports.map((e) => ({ id: e.id, format: e.format, exportedAt: new Date(e.at).toISOString() })),
            };
            const sent = await call(server(), 'POST', '/api/desktop/reports', deviceToken, { payload: batch });
            expect(sent.json()).toEqual({ sessions: sessions.length, exports: exports.length });
            // The application retries: the same batch again, and one session alone, count nothing more.
            expect((await call(server(), 'POST', '/api/desktop/reports', deviceToken, { payload: batch })).json()).toEqual({ sessions: 0, exports: 0 });
            if (sessions[0]) expect((await call(server(), 'POST', '/api/desktop/sessions', deviceToken, { payload: sessionPayload(sessions[0]) })).json()).toEqual({ recorded: false });
            for (const launch of launches) {
              server().clock.set(new Date(launch.at));
              for (let attempt = 0; attempt < 2; attempt++) {
                expect((await call(server(), 'POST', '/api/desktop/heartbeat', deviceToken, { payload: { launched: true, launchId: launch.id } })).statusCode).toBe(200);
              }
            }
            users.push({ id, signupAt, channel: draw.channel, sessions, exports, launches });
          }

          const today = window.start + (WINDOW_DAYS + 400) * DAY_MS;
          server().clock.set(new Date(today));
          const token = await adminToken(server());
          const channels = ['all', ...new Set(users.map((user) => user.channel))];
          for (const filter of filters) {
            for (const granularity of GRANULARITIES) {
              for (const channel of channels) {
                const params = { from: window.from, to: window.to, granularity, channel, ...filter };
                const response = await call(server(), 'GET', `/api/analytics?${query(params)}`, token);
                expect(response.statusCode, response.body).toBe(200);
                expect(response.json().series, JSON.stringify(params)).toEqual(recount(users, params).series);
              }
            }
            for (const granularity of ['week', 'month'] as const) {
              const params = { from: window.from, to: window.to, granularity, ...filter };
              const response = await call(server(), 'GET', `/api/analytics/cohorts?${query(params)}`, token);
              expect(response.statusCode, response.body).toBe(200);
              expect(response.json().cohorts, JSON.stringify(params)).toEqual(recountCohorts(users, params, utcDay(today)));
            }
          }
        },
      ),
      { numRuns: 25, endOnFailure: true },
    );
  }, 240_000);

  it('counts a session in the UTC day, week and month its start falls in: a millisecond either side of midnight', async () => {
    const sunday = Date.UTC(2031, 5, 1); // Sunday 1 June 2031, 00:00 UTC; Monday 2 June starts a week
    const { deviceToken } = await deviceUser(server(), sunday - DAY_MS, 'steam');
    const sessions = [
      { id: randomUUID(), at: sunday - 1, lengthSeconds: 600, playedSeconds: 600, suspicious: false }, // Sat 31 May 23:59:59.999
      { id: randomUUID(), at: sunday, lengthSeconds: 1200, playedSeconds: 1200, suspicious: false }, // Sun 1 June 00:00
      { id: randomUUID(), at: sunday + DAY_MS, lengthSeconds: 1800, playedSeconds: 1800, suspicious: false }, // Mon 2 June 00:00
    ];
    await call(server(), 'POST', '/api/desktop/reports', deviceToken, { payload: { sessions: sessions.map(sessionPayload) } });
    server().clock.set(new Date(sunday + 2 * DAY_MS));
    const token = await adminToken(server());
    const read = async (granularity: Granularity) =>
      (await call(server(), 'GET', `/api/analytics?${query({ from: '2031-05-31', to: '2031-06-02', granularity, channel: 'steam' })}`, token))
        .json()
        .series.map((point: AnalyticsPoint) => [point.period, point.sessions, point.sessionSeconds]);
    expect(await read('day')).toEqual([
      ['2031-05-31', 1, 600],
      ['2031-06-01', 1, 1200],
      ['2031-06-02', 1, 1800],
    ]);
    expect(await read('week')).toEqual([
      ['2031-05-26', 2, 1800],
      ['2031-06-02', 1, 1800],
    ]);
    expect(await read('month')).toEqual([
      ['2031-05-01', 1, 600],
      ['2031-06-01', 2, 3000],
    ]);
  });

  it('played-time bounds are whole minutes, both inclusive; suspicious include, exclude and only', async () => {
    const monday = Date.UTC(2032, 2, 1); // Monday 1 March 2032
    const played = [3600, 3599, 3660, 7200]; // 60 min, 59 min 59 s (59), 61 min, 120 min
    for (const [index, seconds] of played.entries()) {
      const { deviceToken } = await deviceUser(server(), monday, 'android');
      const session = { id: randomUUID(), at: monday + 3600_000, lengthSeconds: seconds, playedSeconds: seconds, suspicious: index === 3 };
      await call(server(), 'POST', '/api/desktop/sessions', deviceToken, { payload: sessionPayload(session) });
    }
    server().clock.set(new Date(monday + DAY_MS));
    const token = await adminToken(server());
    const active = async (filters: Record<string, string | number>) => {
      const response = await call(server(), 'GET', `/api/analytics?${query({ from: '2032-03-01', to: '2032-03-01', channel: 'android', ...filters })}`, token);
      expect(response.statusCode, response.body).toBe(200);
      return response.json().series[0].activeUsers as number;
    };
    expect(await active({})).toBe(4);
    expect(await active({ minPlayed: 60 })).toBe(3);
    expect(await active({ minPlayed: 60, maxPlayed: 60 })).toBe(1);
    expect(await active({ maxPlayed: 59 })).toBe(1);
    expect(await active({ minPlayed: 61, maxPlayed: 120 })).toBe(2);
    expect(await active({ suspicious: 'only' })).toBe(1);
    expect(await active({ suspicious: 'exclude' })).toBe(3);
    expect(await active({ suspicious: 'exclude', minPlayed: 61 })).toBe(1);
  });

  it('refuses bad ranges and filters with a translated messageKey, and non-admins with 403', async () => {
    const token = await adminToken(server());
    const backwards = await call(server(), 'GET', `/api/analytics?${query({ from: '2026-02-01', to: '2026-01-01' })}`, token, { language: 'de' });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().messageKey).toBe('ANALYTICS_RANGE_INVALID');
    expect(backwards.json().message).toMatch(/Zeitraum/);
    const tooLong = await call(server(), 'GET', `/api/analytics?${query({ from: '2024-01-01', to: '2026-01-03' })}`, token);
    expect(tooLong.json().messageKey).toBe('ANALYTICS_RANGE_INVALID');
    const played = await call(server(), 'GET', `/api/analytics/cohorts?${query({ from: '2026-01-01', to: '2026-02-01', minPlayed: 10, maxPlayed: 5 })}`, token);
    expect(played.statusCode).toBe(400);
    expect(played.json().messageKey).toBe('ANALYTICS_PLAYED_RANGE_INVALID');
    for (const bad of [{ granularity: 'hour' }, { suspicious: 'maybe' }, { from: '2026-1-1' }, { minPlayed: -1 }, { channel: 'ebay' }]) {
      const response = await call(server(), 'GET', `/api/analytics?${query({ from: '2026-01-01', to: '2026-02-01', ...bad })}`, token);
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
      expect(response.json().messageKey).toBe('VALIDATION_FAILED');
    }
    const user = await server().createUser();
    const { access_token: userToken } = await signIn(server(), user.email, user.password);
    expect((await call(server(), 'GET', `/api/analytics?${query({ from: '2026-01-01', to: '2026-02-01' })}`, userToken)).statusCode).toBe(403);
    expect((await call(server(), 'GET', `/api/analytics/cohorts?${query({ from: '2026-01-01', to: '2026-02-01' })}`, userToken)).statusCode).toBe(403);
    const { deviceToken } = await deviceUser(server(), Date.UTC(2026, 0, 5), 'direct');
    const session = { id: randomUUID(), at: Date.UTC(2026, 0, 5), lengthSeconds: 60, playedSeconds: 61, suspicious: false };
    const overPlayed = await call(server(), 'POST', '/api/desktop/sessions', deviceToken, { payload: sessionPayload(session) });
    expect(overPlayed.statusCode).toBe(400);
    const tooMany = await call(server(), 'POST', '/api/desktop/reports', deviceToken, {
      payload: { exports: Array.from({ length: 1001 }, () => ({ id: randomUUID(), format: 'obj', exportedAt: new Date(Date.UTC(2026, 0, 5)).toISOString() })) },
    });
    expect(tooMany.statusCode).toBe(400);
  });

  it('leaves a cohort retention figure empty until every member is that many days old', async () => {
    const monday = Date.UTC(2033, 0, 3); // Monday 3 January 2033
    const { deviceToken } = await deviceUser(server(), monday, 'viveport');
    const session = { id: randomUUID(), at: monday + 8 * DAY_MS, lengthSeconds: 600, playedSeconds: 600, suspicious: false };
    await call(server(), 'POST', '/api/desktop/sessions', deviceToken, { payload: sessionPayload(session) });
    server().clock.set(new Date(monday + 16 * DAY_MS)); // the week's last sign-up day (Sunday 9th) is 10 days old
    const token = await adminToken(server());
    const response = await call(server(), 'GET', `/api/analytics/cohorts?${query({ from: '2033-01-03', to: '2033-01-09', granularity: 'week' })}`, token);
    expect(response.json().cohorts).toEqual([
      {
        cohort: '2033-01-03',
        users: 1,
        retention: [
          { day: 7, users: 1, percent: 100 },
          { day: 14, users: null, percent: null },
          { day: 21, users: null, percent: null },
          { day: 28, users: null, percent: null },
          { day: 366, users: null, percent: null },
        ],
      },
    ]);
  });

  it('activations, new users and sales count for the channel they came through', async () => {
    const day = Date.UTC(2034, 4, 2, 12); // Tuesday 2 May 2034
    server().clock.set(new Date(day));
    const token = await adminToken(server());
    const key = `STEAM-${randomUUID().slice(0, 8).toUpperCase()}`;
    expect((await call(server(), 'POST', '/api/lite-keys/import', token, { payload: { csv: `key,channel\n${key},steam\n` } })).json()).toMatchObject({ imported: 1 });
    const { deviceToken } = await deviceUser(server(), day, 'steam');
    await deviceUser(server(), day, 'viveport');
    expect((await call(server(), 'POST', '/api/desktop/lite-keys/claim', deviceToken, { payload: { code: key } })).statusCode).toBe(200);
    const figures = async (channel: string) => {
      const point = (await call(server(), 'GET', `/api/analytics?${query({ from: '2034-05-02', to: '2034-05-02', channel })}`, token)).json().series[0];
      return { newUsers: point.newUsers, activations: point.activations, sales: point.sales };
    };
    expect(await figures('steam')).toEqual({ newUsers: 1, activations: 1, sales: 1 });
    expect(await figures('viveport')).toEqual({ newUsers: 1, activations: 1, sales: 0 });
    // 'all': both sign-ups and the admin's, both activations, the one sale.
    expect(await figures('all')).toEqual({ newUsers: 3, activations: 2, sales: 1 });
  });

  it('a rebuild from the raw rows gives exactly the rollups and cohorts that ingestion kept (run last: every report above)', async () => {
    const snapshot = async () => ({
      periods: await server().db.kysely.selectFrom('analytics_user_periods').selectAll().orderBy(['user_id', 'grain', 'period', 'channel']).execute(),
      rollups: await server().db.kysely.selectFrom('analytics_rollups').selectAll().orderBy(['grain', 'channel', 'period', 'suspicious', 'played_minutes']).execute(),
      lifetimes: await server().db.kysely.selectFrom('analytics_user_lifetimes').selectAll().orderBy('user_id').execute(),
      cohorts: await server().db.kysely.selectFrom('analytics_cohorts').selectAll().orderBy(['grain', 'cohort', 'suspicious', 'played_minutes', 'retained']).execute(),
    });
    const kept = await snapshot();
    expect(kept.rollups.length).toBeGreaterThan(100);
    await rebuildAnalytics(server().db.kysely, server().db.dialect);
    const rebuilt = await snapshot();
    const numbers = (rows: object[]) => rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value])));
    for (const table of ['periods', 'rollups', 'lifetimes', 'cohorts'] as const) expect(numbers(rebuilt[table]), table).toEqual(numbers(kept[table]));
  });
});

/**
 * Issue 21 item 3 on a server of its own (its figures are the only ones): where a channel's data starts,
 * the periods not over yet, and each KPI against the same number of complete periods before the range.
 * One Android user: signed up on Wednesday 7 March 2035, two sessions in the week of 5 March, one in
 * the week of 12 March (suspicious), three in the week of 19 March and one on Tuesday 27 March; today
 * is Wednesday 28 March 2035, so the week of 26 March is the incomplete one.
 */
describeEachDatabase('analytics first day, incomplete period and change against the previous period', (server) => {
  const at = (day: string, hour = 12) => Date.parse(`${day}T${String(hour).padStart(2, '0')}:00:00Z`);
  const session = (day: string, lengthSeconds: number, suspicious = false): Session => ({
    id: randomUUID(),
    at: at(day),
    lengthSeconds,
    playedSeconds: lengthSeconds,
    suspicious,
  });
  let token: string;
  const ask = async (path: string, params: Record<string, string | number | undefined>) => {
    const response = await call(server(), 'GET', `${path}?${query(params)}`, token);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  beforeAll(async () => {
    const { deviceToken } = await deviceUser(server(), at('2035-03-07', 9), 'android');
    const sessions = [
      session('2035-03-07', 600),
      session('2035-03-09', 1200),
      session('2035-03-14', 1800, true),
      session('2035-03-20', 600),
      session('2035-03-24', 900),
      session('2035-03-25', 1500),
      session('2035-03-27', 3000),
    ];
    const sent = await call(server(), 'POST', '/api/desktop/reports', deviceToken, { payload: { sessions: sessions.map(sessionPayload) } });
    expect(sent.json()).toEqual({ sessions: 7, exports: 0 });
    server().clock.set(new Date(at('2035-03-28', 15)));
    token = await adminToken(server());
  });

  it("tells the channel's first day with data, whatever the filters, and the server's today", async () => {
    expect(await ask('/api/analytics/first-day', { channel: 'android' })).toEqual({ channel: 'android', firstDay: '2035-03-07', today: '2035-03-28' });
    expect(await ask('/api/analytics/first-day', { channel: 'steam' })).toEqual({ channel: 'steam', firstDay: null, today: '2035-03-28' });
    // 'all' holds the Android user too, and every sign-up before (the admins'), so it starts no later.
    expect((await ask('/api/analytics/first-day', {})).firstDay <= '2035-03-07').toBe(true);
    const bad = await call(server(), 'GET', '/api/analytics/first-day?channel=ebay', token);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().messageKey).toBe('VALIDATION_FAILED');
    const user = await server().createUser();
    const { access_token: userToken } = await signIn(server(), user.email, user.password);
    expect((await call(server(), 'GET', '/api/analytics/first-day?channel=all', userToken)).statusCode).toBe(403);
  });

  it('flags the current week as incomplete and compares the complete weeks with as many weeks before the range', async () => {
    const answer: AnalyticsResponse = await ask('/api/analytics', { from: '2035-03-19', to: '2035-03-28', granularity: 'week', channel: 'android' });
    expect(answer.series.map((point) => [point.period, point.sessions])).toEqual([
      ['2035-03-19', 3],
      ['2035-03-26', 1],
    ]);
    expect(answer.incompleteFrom).toBe('2035-03-26');
    // The KPIs still hold the whole range, the incomplete week included (the live counters add to them).
    expect(answer.totals.sessions).toBe(4);
    // Compared: the week of 19 March (3 sessions, 3000 s) against the week of 12 March (1 session, 1800 s).
    expect(answer.comparison).toEqual({
      periods: 1,
      from: '2035-03-19',
      to: '2035-03-25',
      previousFrom: '2035-03-12',
      previousTo: '2035-03-18',
      current: { newUsers: 0, activeUsers: 1, sessions: 3, averageSessionSeconds: 1000, playedSeconds: 3000, exports: 0, launches: 0, activations: 0, sales: 0 },
      previous: { newUsers: 0, activeUsers: 1, sessions: 1, averageSessionSeconds: 1800, playedSeconds: 1800, exports: 0, launches: 0, activations: 0, sales: 0 },
      change: {
        newUsers: null,
        activeUsers: 0,
        sessions: 200,
        averageSessionSeconds: -44.4,
        playedSeconds: 66.7,
        exports: null,
        launches: null,
        activations: null,
        sales: null,
      },
    });
  });

  it('a range that is all past compares every period; the filters apply to the previous periods too', async () => {
    const past: AnalyticsResponse = await ask('/api/analytics', { from: '2035-03-12', to: '2035-03-25', granularity: 'week', channel: 'android' });
    expect(past.incompleteFrom).toBeNull();
    // Weeks of 12 and 19 March (4 sessions) against those of 26 February and 5 March (the sign-up, 2 sessions).
    expect(past.comparison).toMatchObject({ periods: 2, from: '2035-03-12', to: '2035-03-25', previousFrom: '2035-02-26', previousTo: '2035-03-11' });
    expect(past.comparison?.current).toMatchObject({ newUsers: 0, sessions: 4, activeUsers: 1, activations: 0 });
    expect(past.comparison?.previous).toMatchObject({ newUsers: 1, sessions: 2, activeUsers: 0.5, activations: 1 });
    expect(past.comparison?.change).toMatchObject({ newUsers: -100, sessions: 100, activeUsers: 100, activations: -100 });

    // Without the week holding a suspicious session: 3 sessions in the range.
    const clean: AnalyticsResponse = await ask('/api/analytics', { from: '2035-03-12', to: '2035-03-25', granularity: 'week', channel: 'android', suspicious: 'exclude' });
    expect(clean.comparison?.current.sessions).toBe(3);
    expect(clean.comparison?.previous.sessions).toBe(2);
    expect(clean.comparison?.change.sessions).toBe(50);
    // Played at least 40 minutes in the week: only the week of 19 March (50 min) and none before.
    const long: AnalyticsResponse = await ask('/api/analytics', { from: '2035-03-12', to: '2035-03-25', granularity: 'week', channel: 'android', minPlayed: 40 });
    expect(long.comparison?.current.sessions).toBe(3);
    expect(long.comparison?.previous.sessions).toBe(0);
    expect(long.comparison?.change.sessions).toBeNull();
  });

  it('by day: today is the incomplete period; the complete days are compared with as many days before', async () => {
    const days: AnalyticsResponse = await ask('/api/analytics', { from: '2035-03-26', to: '2035-03-30', granularity: 'day', channel: 'android' });
    // Today and the days after it are not over.
    expect(days.incompleteFrom).toBe('2035-03-28');
    expect(days.series.map((point) => point.period)).toEqual(['2035-03-26', '2035-03-27', '2035-03-28', '2035-03-29', '2035-03-30']);
    // 26 and 27 March (1 session) against 24 and 25 March (2 sessions).
    expect(days.comparison).toMatchObject({ periods: 2, from: '2035-03-26', to: '2035-03-27', previousFrom: '2035-03-24', previousTo: '2035-03-25' });
    expect(days.comparison?.change.sessions).toBe(-50);
    expect(days.comparison?.change.playedSeconds).toBe(25); // 3000 s against 2400 s
  });

  it('by month: the compared months are as many calendar months before; a range of only incomplete periods compares nothing', async () => {
    const months: AnalyticsResponse = await ask('/api/analytics', { from: '2035-02-01', to: '2035-03-28', granularity: 'month', channel: 'android' });
    expect(months.incompleteFrom).toBe('2035-03-01');
    expect(months.comparison).toMatchObject({ periods: 1, from: '2035-02-01', to: '2035-02-28', previousFrom: '2035-01-01', previousTo: '2035-01-31' });
    expect(months.comparison?.change.sessions).toBeNull(); // no data before the sign-up: '—', not +∞

    const current: AnalyticsResponse = await ask('/api/analytics', { from: '2035-03-26', to: '2035-03-28', granularity: 'week', channel: 'android' });
    expect(current.incompleteFrom).toBe('2035-03-26');
    expect(current.comparison).toBeNull();
  });

  it('refuses impossible dates and ranges at the edges of the calendar with 400 and a messageKey, never 500', async () => {
    for (const params of [
      { from: '2035-02-30', to: '2035-03-28' },
      { from: '2035-03-28', to: '2035-02-01' },
      { from: '0000-00-00', to: '2035-03-28' },
    ]) {
      const response = await call(server(), 'GET', `/api/analytics?${query(params)}`, token);
      expect(response.statusCode, JSON.stringify(params)).toBe(400);
      expect(response.json().messageKey).toBe('ANALYTICS_RANGE_INVALID');
    }
    for (const params of [
      { from: '0001-01-01', to: '0001-12-31', granularity: 'month' },
      { from: '9999-01-01', to: '9999-12-31', granularity: 'week' },
    ]) {
      const response = await call(server(), 'GET', `/api/analytics?${query(params)}`, token);
      expect(response.statusCode, `${JSON.stringify(params)} ${response.body}`).toBe(200);
    }
  });
});

for (const kind of DATABASE_KINDS) {
  describe(`live analytics counters [${kind}]`, () => {
    let server: TestServer;
    let base: string;
    beforeAll(async () => {
      server = await startTestServer(kind, {}, { eventHeartbeatMs: 100 });
      await server.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await server?.close();
    });

    it("tells admins' streams, and no one else's, what a new report adds", async () => {
      const at = server.clock.now().getTime();
      const { deviceToken } = await deviceUser(server, at, 'steam');
      const admin = await fetch(`${base}/api/events`, { headers: { authorization: `Bearer ${await adminToken(server)}` } });
      const plain = await server.createUser();
      const userStream = await fetch(`${base}/api/events`, { headers: { authorization: `Bearer ${(await signIn(server, plain.email, plain.password)).access_token}` } });
      const session = { id: randomUUID(), at, lengthSeconds: 900, playedSeconds: 800, suspicious: false };
      await call(server, 'POST', '/api/desktop/sessions', deviceToken, { payload: sessionPayload(session) });
      const heard = await readUntil(admin, /event: analytics\ndata: .*\n\n/);
      expect(heard).toContain(`data: ${JSON.stringify({ type: 'analytics', day: utcDay(at), sessions: 1, playedSeconds: 800, exports: 0, launches: 0 })}`);
      expect(await readUntil(userStream, /: heartbeat\n\n/)).not.toContain('event: analytics');
    });
  });
}
