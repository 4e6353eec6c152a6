import type { Kysely, Transaction } from 'kysely';
import { RETENTION_DAYS, type AnalyticsEvent, type Granularity } from '../../../contract/analytics.js';
import type { Clock } from '../../clock.js';
import type { Dialect } from '../../db/index.js';
import { PERIOD_FIGURES, ROLLUP_SUMS, type Figure, type Figures } from './figures.js';
import type { Database } from '../../db/schema.js';
import { type EventBus, ADMINS } from '../events/index.js';
import { COHORT_GRAINS, dayOf, daysBetween, GRAINS, periodOf } from './periods.js';
import type { Report } from './report.js';
import { lockAccountsForReports, signupsOf } from '../users/index.js';
import { insertActivations, insertExports, insertFirstChannelUse, insertLaunches, insertSales, insertSessions } from './reports-repo.js';
import {
  addToCohorts,
  addToRollups,
  deleteEmptiedCohorts,
  deleteEmptiedRollups,
  lifetimesOf,
  upsertLifetimes,
  upsertUserPeriods,
  userPeriodsOf,
  type CohortRow,
  type LifetimeRow,
  type RollupKey,
  type RollupSums,
} from './rollups-repo.js';

/**
 * Ingestion: what the desktop application and the portal report, stored raw (idempotent on the
 * client's id) and rolled up in the same transaction, so the dashboard never scans raw rows and the
 * rollups are never behind what was acknowledged.
 *
 * The unit is the user-period: one user's figures in one day, week or month, for 'all' channels and
 * for the channel the report came through. A rollup row is the sum of the user-periods sharing
 * (grain, channel, period, suspicious or not, played minutes); when a report changes a user-period, its
 * old figures leave its old rollup row and its new figures join its new one. Cohorts do the same with
 * each user's whole history. The statements are in ./reports-repo.ts (raw reports) and ./rollups-repo.ts.
 */

export interface AnalyticsDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  clock: Clock;
  bus: EventBus;
}

const zero = (): Figures => Object.fromEntries(PERIOD_FIGURES.map((name) => [name, 0])) as Figures;

/** Rows per multi-row statement: well below SQLite's 32,766 variables and PostgreSQL's 65,535. */
const CHUNK = 400;

function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let index = 0; index < items.length; index += size) out.push(items.slice(index, index + size));
  return out;
}

const keyOf = (...parts: (string | number)[]) => parts.join('\u0000');

/** A user-period's place in the rollups and what it adds there. */
function rollupOf(grain: string, channel: string, period: string, figures: Figures): { key: RollupKey; adds: RollupSums } {
  return {
    key: { grain, channel, period, suspicious: figures.suspicious_sessions > 0 ? 1 : 0, played_minutes: Math.floor(figures.played_seconds / 60) },
    adds: { ...figures, is_new: figures.is_new > 0 ? 1 : 0, user_periods: 1, active_users: figures.sessions > 0 ? 1 : 0 },
  };
}

/** Sums of signed changes per rollup row, to apply as one upsert. */
class RollupChanges {
  readonly rows = new Map<string, { key: RollupKey; adds: RollupSums }>();

  add(grain: string, channel: string, period: string, figures: Figures, sign: 1 | -1) {
    const { key, adds } = rollupOf(grain, channel, period, figures);
    const id = keyOf(key.grain, key.channel, key.period, key.suspicious, key.played_minutes);
    const row = this.rows.get(id) ?? { key, adds: { ...zero(), user_periods: 0, active_users: 0 } };
    for (const name of Object.keys(adds) as (keyof RollupSums)[]) row.adds[name] += sign * adds[name];
    this.rows.set(id, row);
  }
}

/** The figures one report adds to its user-periods. */
function figuresOf(report: Report): Partial<Figures> {
  switch (report.kind) {
    case 'signup':
      return { is_new: 1 };
    case 'session':
      return {
        sessions: 1,
        session_seconds: report.lengthSeconds,
        played_seconds: report.playedSeconds,
        suspicious_sessions: report.suspicious ? 1 : 0,
      };
    case 'export':
      return { [`exports_${report.format}`]: 1 };
    case 'launch':
      return { launches: 1 };
    case 'activation':
      return { activations: 1 };
    case 'sale':
      return { sales: 1 };
  }
}

function instantOf(report: Report): Date {
  if (report.kind === 'session') return report.startedAt;
  if (report.kind === 'export') return report.exportedAt;
  return report.at;
}

/** Inserts `items` a chunk at a time (`insert` skips ids already stored) and adds those it inserted to `fresh`. */
async function keepNew<R extends Report & { id: string }>(items: R[], insert: (chunk: R[]) => Promise<{ user_id: string; id: string }[]>, fresh: Set<Report>) {
  for (const chunk of chunks(items)) {
    const ids = new Set((await insert(chunk)).map((row) => keyOf(row.user_id, row.id)));
    // Two copies of one id in the same batch: only the first counts.
    for (const item of chunk) if (ids.delete(keyOf(item.userId, item.id))) fresh.add(item);
  }
}

/** Stores the raw reports that are new; answers which of them were (a retried id is not counted twice). */
async function storeRaw(trx: Transaction<Database>, reports: Report[], now: string): Promise<Set<Report>> {
  const fresh = new Set<Report>(reports.filter((r) => r.kind === 'signup'));
  const only = <K extends Report['kind']>(kind: K) => reports.filter((r): r is Extract<Report, { kind: K }> => r.kind === kind);
  await keepNew(only('session'), (chunk) => insertSessions(trx, chunk, now), fresh);
  await keepNew(only('export'), (chunk) => insertExports(trx, chunk, now), fresh);
  await keepNew(only('launch'), (chunk) => insertLaunches(trx, chunk), fresh);
  await keepNew(only('activation'), (chunk) => insertActivations(trx, chunk), fresh);
  await keepNew(only('sale'), (chunk) => insertSales(trx, chunk), fresh);
  return fresh;
}

/** Activations through a channel the user never used before make them a new user of that channel. */
async function firstActivations(trx: Transaction<Database>, reports: Report[], fresh: Set<Report>): Promise<Set<Report>> {
  const firsts = new Set<Report>();
  for (const r of reports) {
    if (r.kind !== 'activation' || !fresh.has(r)) continue;
    if (await insertFirstChannelUse(trx, { userId: r.userId, channel: r.channel, at: r.at.toISOString() })) firsts.add(r);
  }
  return firsts;
}

interface PeriodChange {
  userId: string;
  grain: Granularity;
  period: string;
  channel: string;
  delta: Figures;
}

/** Applies the changes to the user-periods and moves each one's figures between rollup rows. */
async function applyPeriods(trx: Transaction<Database>, changes: Map<string, PeriodChange>) {
  if (changes.size === 0) return;
  const users = [...new Set([...changes.values()].map((c) => c.userId))];
  const periods = [...new Set([...changes.values()].map((c) => c.period))];
  const existing = new Map<string, Figures>();
  for (const chunk of chunks(users)) {
    for (const row of await userPeriodsOf(trx, chunk, periods)) {
      const figures = zero();
      for (const name of PERIOD_FIGURES) figures[name] = Number(row[name]);
      existing.set(keyOf(row.user_id, row.grain, row.period, row.channel), figures);
    }
  }
  const rollups = new RollupChanges();
  const states: (PeriodChange & { figures: Figures })[] = [];
  for (const [id, change] of changes) {
    const old = existing.get(id);
    const figures = zero();
    for (const name of PERIOD_FIGURES) figures[name] = (old?.[name] ?? 0) + change.delta[name];
    figures.is_new = Math.min(1, figures.is_new);
    if (old) rollups.add(change.grain, change.channel, change.period, old, -1);
    rollups.add(change.grain, change.channel, change.period, figures, 1);
    states.push({ ...change, figures });
  }
  states.sort((a, b) => (keyOf(a.userId, a.grain, a.period, a.channel) < keyOf(b.userId, b.grain, b.period, b.channel) ? -1 : 1));
  for (const chunk of chunks(states)) await upsertUserPeriods(trx, chunk);
  await applyRollups(trx, rollups);
}

/** Adds the signed sums to their rollup rows (in key order, so concurrent writers never deadlock) and drops emptied rows. */
async function applyRollups(trx: Transaction<Database>, rollups: RollupChanges) {
  const rows = [...rollups.rows.entries()]
    .filter(([, row]) => ROLLUP_SUMS.some((name) => row.adds[name] !== 0))
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([, row]) => row);
  for (const chunk of chunks(rows)) await addToRollups(trx, chunk);
  // Rows a move may have emptied go.
  const emptied = rows.filter((row) => row.adds.user_periods < 0);
  for (const chunk of chunks(emptied, 100)) await deleteEmptiedRollups(trx, chunk.map((row) => row.key));
}

interface Lifetime {
  signupDay: string;
  lastActiveDay: string | null;
  playedSeconds: number;
  suspiciousSessions: number;
}

/** How many of the retention days (7, 14, 21, 28, 366) a user has reached: active on or after each. */
export function retainedLevel(lifetime: Pick<Lifetime, 'signupDay' | 'lastActiveDay'>): number {
  if (!lifetime.lastActiveDay) return 0;
  const days = daysBetween(lifetime.signupDay, lifetime.lastActiveDay);
  return RETENTION_DAYS.filter((day) => days >= day).length;
}

/** Moves each changed user between cohort rows (sign-up cohort, suspicious ever, played minutes, retention reached). */
async function applyLifetimes(trx: Transaction<Database>, signups: Set<string>, deltas: Map<string, { played: number; suspicious: number; lastDay: string }>) {
  const users = [...new Set([...signups, ...deltas.keys()])].sort();
  if (users.length === 0) return;
  const existing = new Map<string, Lifetime>();
  const created = new Map<string, string>();
  for (const chunk of chunks(users)) {
    for (const row of await lifetimesOf(trx, chunk)) {
      existing.set(row.user_id, {
        signupDay: row.signup_day,
        lastActiveDay: row.last_active_day,
        playedSeconds: Number(row.played_seconds),
        suspiciousSessions: Number(row.suspicious_sessions),
      });
    }
    for (const row of await signupsOf(trx, chunk)) created.set(row.id, dayOf(row.created_at));
  }
  const cohorts = new Map<string, CohortRow>();
  const move = (lifetime: Lifetime, sign: 1 | -1) => {
    for (const grain of COHORT_GRAINS) {
      const row = {
        grain,
        cohort: periodOf(grain, lifetime.signupDay),
        suspicious: lifetime.suspiciousSessions > 0 ? 1 : 0,
        played_minutes: Math.floor(lifetime.playedSeconds / 60),
        retained: retainedLevel(lifetime),
        users: 0,
      };
      const id = keyOf(row.grain, row.cohort, row.suspicious, row.played_minutes, row.retained);
      const entry = cohorts.get(id) ?? row;
      entry.users += sign;
      cohorts.set(id, entry);
    }
  };
  const states: LifetimeRow[] = [];
  for (const userId of users) {
    const signupDay = created.get(userId);
    if (!signupDay) continue; // deleted meanwhile
    const old = existing.get(userId);
    const delta = deltas.get(userId);
    const lastActiveDay = [old?.lastActiveDay, delta?.lastDay].filter((day): day is string => Boolean(day)).sort().pop() ?? null;
    const next: Lifetime = {
      signupDay: old?.signupDay ?? signupDay,
      lastActiveDay,
      playedSeconds: (old?.playedSeconds ?? 0) + (delta?.played ?? 0),
      suspiciousSessions: (old?.suspiciousSessions ?? 0) + (delta?.suspicious ?? 0),
    };
    if (old) move(old, -1);
    move(next, 1);
    states.push({
      user_id: userId,
      signup_day: next.signupDay,
      last_active_day: next.lastActiveDay,
      played_seconds: next.playedSeconds,
      suspicious_sessions: next.suspiciousSessions,
    });
  }
  for (const chunk of chunks(states)) await upsertLifetimes(trx, chunk);
  const rows = [...cohorts.entries()]
    .filter(([, row]) => row.users !== 0)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([, row]) => row);
  for (const chunk of chunks(rows)) await addToCohorts(trx, chunk);
  // Rows a move may have emptied go.
  const emptied = rows.filter((row) => row.users < 0);
  for (const chunk of chunks(emptied, 100)) await deleteEmptiedCohorts(trx, chunk);
}

/**
 * Records the reports in the caller's transaction: raw rows (new ones only), user-periods, rollups and
 * cohorts. On PostgreSQL the reports' users are locked first (in id order), so two requests for one
 * user apply one after the other and never read the same old figures. Answers, per report, whether it
 * was new, and what the live dashboard counters should add.
 */
export async function recordReports(trx: Transaction<Database>, dialect: Dialect, reports: Report[], now: Date): Promise<{ recorded: boolean[]; live: AnalyticsEvent[] }> {
  if (reports.length === 0) return { recorded: [], live: [] };
  const userIds = [...new Set(reports.map((r) => r.userId))].sort();
  if (dialect === 'postgres') {
    for (const chunk of chunks(userIds)) await lockAccountsForReports(trx, chunk);
  }
  const fresh = await storeRaw(trx, reports, now.toISOString());
  const firsts = await firstActivations(trx, reports, fresh);

  const changes = new Map<string, PeriodChange>();
  const signups = new Set<string>();
  const lifetimes = new Map<string, { played: number; suspicious: number; lastDay: string }>();
  const live = new Map<string, AnalyticsEvent>();
  for (const report of reports) {
    if (!fresh.has(report)) continue;
    const at = instantOf(report);
    const adds = figuresOf(report);
    const channels = report.kind === 'signup' ? ['all'] : ['all', report.channel];
    for (const channel of channels) {
      // A user is new to a store channel when they first activate a computer through it.
      const figures = { ...adds };
      if (report.kind === 'activation' && channel !== 'all' && firsts.has(report)) figures.is_new = 1;
      for (const grain of GRAINS) {
        const period = periodOf(grain, at);
        const id = keyOf(report.userId, grain, period, channel);
        const change = changes.get(id) ?? { userId: report.userId, grain, period, channel, delta: zero() };
        for (const [name, value] of Object.entries(figures) as [Figure, number][]) change.delta[name] += value;
        changes.set(id, change);
      }
    }
    if (report.kind === 'signup') signups.add(report.userId);
    if (report.kind === 'session') {
      const lifetime = lifetimes.get(report.userId) ?? { played: 0, suspicious: 0, lastDay: dayOf(at) };
      lifetime.played += report.playedSeconds;
      lifetime.suspicious += report.suspicious ? 1 : 0;
      if (dayOf(at) > lifetime.lastDay) lifetime.lastDay = dayOf(at);
      lifetimes.set(report.userId, lifetime);
    }
    if (report.kind === 'session' || report.kind === 'export' || report.kind === 'launch') {
      const day = dayOf(at);
      const counter = live.get(day) ?? { type: 'analytics', day, sessions: 0, playedSeconds: 0, exports: 0, launches: 0 };
      if (report.kind === 'session') {
        counter.sessions += 1;
        counter.playedSeconds += report.playedSeconds;
      } else if (report.kind === 'export') counter.exports += 1;
      else counter.launches += 1;
      live.set(day, counter);
    }
  }
  await applyPeriods(trx, changes);
  await applyLifetimes(trx, signups, lifetimes);
  return { recorded: reports.map((report) => fresh.has(report)), live: [...live.values()] };
}

/** Records reports in a transaction of their own and tells the admins' dashboards once it has committed. */
export async function ingest(deps: AnalyticsDeps, reports: Report[]): Promise<boolean[]> {
  const { recorded, live } = await deps.db.transaction().execute((trx) => recordReports(trx, deps.dialect, reports, deps.clock.now()));
  for (const event of live) deps.bus.publish(ADMINS, event);
  return recorded;
}
