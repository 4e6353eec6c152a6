import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  GRANULARITIES,
  STORE_CHANNELS,
  SUSPICIOUS_FILTERS,
  type AnalyticsQuery,
  type AnalyticsResponse,
  type CohortQuery,
  type CohortResponse,
} from '../contract/analytics.js';
import type { DatabaseConfig } from '../server/config.js';
import { migrateToLatest, openDatabase, type Db } from '../server/db/index.js';
import { addDays, dayOf } from '../server/modules/analytics/periods.js';
import { generateAnalytics, type GeneratedAnalytics } from '../scripts/analytics-data.js';
import { DuckAnalytics, type DuckLoad } from './analytics-duckdb.js';
import { measureIngestion, type IngestionResult } from './analytics-ingest.js';
import { benchApp, withBenchPostgres } from './bench-app.js';

/**
 * Usage analytics at scale (issue "Usage analytics and cohorts"): generated users and reports straight
 * into the database, then
 * a. every dashboard question (day/week/month x all and each store channel x suspicious include/exclude/
 *    only x played-time filters) and every cohort question over the last year, through the real app
 *    (`inject`: routing, validation, query, serialisation; no network);
 * b. the same questions asked of DuckDB over the same raw rows (computed on the fly), compared number by
 *    number with the API's answers, and our time / DuckDB's time;
 * c. ingestion on SQLite through the real server: session reports per second, rollups current after.
 * Prints a summary and writes bench/results/analytics.json (one entry per data size).
 *
 *   npm run bench:analytics                          1M users, 10M sessions, 2M exports over 730 days, SQLite
 *   USERS=100000 SESSIONS=1000000 EXPORTS=200000 npm run bench:analytics      a smaller set
 *   BENCH_DATABASE_URL=postgres://... npm run bench:analytics                PostgreSQL too (fresh database, dropped after)
 *   BENCH_KEEP_DATABASE=portal_bench_analytics      keep (and reuse) the PostgreSQL database
 *   SKIP_DUCKDB=1, SKIP_INGEST=1, INGEST_SECONDS=20   leave out or shorten parts
 *
 * The SQLite file (data/bench-analytics-<users>.db, with its settings beside it in a .json) is reused
 * while the settings match; delete it to regenerate.
 */
const number = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SIZE = { users: number('USERS', 1_000_000), sessions: number('SESSIONS', 10_000_000), exports: number('EXPORTS', 2_000_000), days: number('DAYS', 730) };
const INGEST = { seconds: number('INGEST_SECONDS', 20), concurrency: number('INGEST_CONCURRENCY', 8), devices: 200, batchSize: 100 };
const GOAL_P95_MS = 200;
const root = path.resolve(import.meta.dirname, '..');
const log = (line: string) => process.stdout.write(`${line}\n`);

type Family = 'dashboard day' | 'dashboard week' | 'dashboard month' | 'cohorts';
const FAMILIES: Family[] = ['dashboard day', 'dashboard week', 'dashboard month', 'cohorts'];

type Question = { family: Family; url: string } & ({ kind: 'dashboard'; query: AnalyticsQuery } | { kind: 'cohorts'; query: CohortQuery });

const PLAYED_FILTERS: { minPlayed?: number; maxPlayed?: number }[] = [{}, { minPlayed: 60 }, { maxPlayed: 600 }, { minPlayed: 60, maxPlayed: 600 }];

/** Every question of the issue over the year ending on the data's last day. */
function questions(lastDay: string): Question[] {
  const from = addDays(lastDay, -364);
  const to = lastDay;
  const list: Question[] = [];
  const search = (query: Record<string, string | number | undefined>) =>
    Object.entries(query)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`)
      .join('&');
  for (const granularity of GRANULARITIES) {
    for (const channel of ['all', ...STORE_CHANNELS] as const) {
      for (const suspicious of SUSPICIOUS_FILTERS) {
        for (const played of PLAYED_FILTERS) {
          const query: AnalyticsQuery = { from, to, granularity, channel, suspicious, ...played };
          list.push({ family: `dashboard ${granularity}`, kind: 'dashboard', query, url: `/api/analytics?${search(query)}` });
        }
      }
    }
  }
  for (const granularity of ['week', 'month'] as const) {
    for (const suspicious of SUSPICIOUS_FILTERS) {
      for (const played of PLAYED_FILTERS) {
        const query: CohortQuery = { from, to, granularity, suspicious, ...played };
        list.push({ family: 'cohorts', kind: 'cohorts', query, url: `/api/analytics/cohorts?${search(query)}` });
      }
    }
  }
  return list;
}

interface Stats {
  median: number;
  p95: number;
  max: number;
  n: number;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), max: sorted[sorted.length - 1] ?? NaN, n: sorted.length };
}

type Timed = { question: Question; ms: number; answer: AnalyticsResponse | CohortResponse }[];

function byFamily(timed: Timed): Record<Family | 'overall', Stats> {
  const result = {} as Record<Family | 'overall', Stats>;
  for (const family of FAMILIES) result[family] = stats(timed.filter((t) => t.question.family === family).map((t) => t.ms));
  result.overall = stats(timed.map((t) => t.ms));
  return result;
}

function printFamilies(label: string, families: Record<string, Stats>) {
  for (const [family, s] of Object.entries(families)) {
    log(`  ${label.padEnd(9)} ${family.padEnd(16)} median ${s.median.toFixed(1).padStart(8)} ms  p95 ${s.p95.toFixed(1).padStart(8)} ms  max ${s.max.toFixed(1).padStart(8)} ms  (${s.n})`);
  }
}

// --- data ---

interface DataSettings {
  users: number;
  sessions: number;
  exports: number;
  days: number;
  end: string;
}

async function prepare(config: DatabaseConfig, settings: DataSettings): Promise<{ db: Db; generation: GeneratedAnalytics | null; adminId: string }> {
  const db = openDatabase(config);
  await migrateToLatest(db);
  const { n } = await db.kysely.selectFrom('analytics_sessions').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  let generation: GeneratedAnalytics | null = null;
  if (Number(n) === 0) {
    log(`generating ${settings.users.toLocaleString('en')} users, ${settings.sessions.toLocaleString('en')} sessions, ${settings.exports.toLocaleString('en')} exports over ${settings.days} days ending ${settings.end} on ${config.dialect}:`);
    generation = await generateAnalytics(db, { ...settings, end: new Date(settings.end), log });
  } else if (Number(n) !== settings.sessions) {
    throw new Error(`${config.dialect}: the database holds ${n} sessions, not ${settings.sessions}; drop it to regenerate`);
  }
  const admin = await db.kysely.selectFrom('user_roles').select('user_id').where('role', '=', 'admin').orderBy('user_id').executeTakeFirstOrThrow();
  return { db, generation, adminId: admin.user_id };
}

// --- a. our API ---

async function askApi(label: string, db: Db, adminId: string, list: Question[]): Promise<Timed> {
  const { app, adminToken } = await benchApp(db);
  const token = await adminToken(adminId);
  const ask = async (url: string) => {
    const started = performance.now();
    const response = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    const ms = performance.now() - started;
    if (response.statusCode !== 200) throw new Error(`${label} ${url}: ${response.statusCode} ${response.body}`);
    return { ms, answer: response.json<AnalyticsResponse | CohortResponse>() };
  };
  for (const question of list.slice(0, 3)) await ask(question.url); // warm-up
  const timed: Timed = [];
  for (const question of list) timed.push({ question, ...(await ask(question.url)) });
  await app.close();
  return timed;
}

// --- b. DuckDB ---

async function askDuck(duck: DuckAnalytics, list: Question[]): Promise<Timed> {
  const today = dayOf(new Date());
  const ask = async (question: Question) => {
    const started = performance.now();
    const answer = question.kind === 'dashboard' ? await duck.dashboard(question.query, today) : await duck.cohorts(question.query, today);
    return { ms: performance.now() - started, answer };
  };
  const first = list[0];
  if (first) await ask(first); // warm-up
  const timed: Timed = [];
  for (const question of list) timed.push({ question, ...(await ask(question)) });
  return timed;
}

/** Where two answers differ (path and both values), at most `limit` places. */
function differences(ours: unknown, theirs: unknown, limit = 5, at = ''): string[] {
  if (typeof ours !== 'object' || ours === null || typeof theirs !== 'object' || theirs === null) {
    return Object.is(ours, theirs) ? [] : [`${at}: ours ${JSON.stringify(ours)}, DuckDB ${JSON.stringify(theirs)}`];
  }
  const mine = ours as Record<string, unknown>;
  const other = theirs as Record<string, unknown>;
  const found: string[] = [];
  for (const key of new Set([...Object.keys(mine), ...Object.keys(other)])) {
    if (found.length >= limit) break;
    // A series point or cohort row is named by its period rather than its index.
    const item = mine[key] as Record<string, unknown> | undefined;
    const tag = Array.isArray(mine) && item && typeof item === 'object' ? (item.period ?? item.cohort) : undefined;
    const name = tag !== undefined ? `${at}[${String(tag)}]` : at ? `${at}.${key}` : key;
    found.push(...differences(mine[key], other[key], limit - found.length, name));
  }
  return found;
}

function compare(label: string, ours: Timed, duck: Timed): { url: string; differences: string[] }[] {
  const mismatches: { url: string; differences: string[] }[] = [];
  const theirs = new Map(duck.map((t) => [t.question.url, t.answer]));
  for (const { question, answer } of ours) {
    const other = theirs.get(question.url);
    if (!other) continue;
    const found = differences(answer, other);
    if (found.length > 0) mismatches.push({ url: question.url, differences: found });
  }
  if (mismatches.length === 0) log(`  ${label}: all ${ours.length} answers equal DuckDB's, number by number`);
  else {
    log(`\n  !!!!!!!! ${label}: ${mismatches.length} of ${ours.length} answers DIFFER from DuckDB's !!!!!!!!`);
    for (const mismatch of mismatches.slice(0, 10)) log(`  !!! ${mismatch.url}\n      ${mismatch.differences.join('\n      ')}`);
    log('');
  }
  return mismatches;
}

function ratios(ours: Record<string, Stats>, duck: Record<string, Stats>) {
  return Object.fromEntries(
    Object.keys(ours).map((family) => [family, { median: (ours[family]?.median ?? NaN) / (duck[family]?.median ?? NaN), p95: (ours[family]?.p95 ?? NaN) / (duck[family]?.p95 ?? NaN) }]),
  );
}

function slowest(timed: Timed, count = 5) {
  return [...timed]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count)
    .map((t) => ({ url: t.question.url, ms: Math.round(t.ms * 10) / 10 }));
}

// --- the run ---

const dataDir = path.join(root, 'data');
mkdirSync(dataDir, { recursive: true });
const sqliteFile = path.join(dataDir, `bench-analytics-${SIZE.users}.db`);
const settingsFile = sqliteFile.replace(/\.db$/, '.json');
let settings: DataSettings = { ...SIZE, end: new Date(Math.floor(Date.now() / 1000) * 1000).toISOString() };
if (existsSync(sqliteFile)) {
  const stored = existsSync(settingsFile) ? (JSON.parse(readFileSync(settingsFile, 'utf8')) as DataSettings) : null;
  if (stored && stored.sessions === SIZE.sessions && stored.exports === SIZE.exports && stored.days === SIZE.days) {
    settings = stored;
    log(`reusing ${path.relative(root, sqliteFile)} (data ending ${settings.end})`);
  } else {
    log(`${path.relative(root, sqliteFile)} was generated with other settings: regenerating`);
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${sqliteFile}${suffix}`, { force: true });
  }
}
const lastDay = dayOf(settings.end);
const list = questions(lastDay);
log(`${list.length} questions over ${addDays(lastDay, -364)}..${lastDay}`);

const result: Record<string, unknown> = { date: new Date().toISOString(), settings, goal: { p95Ms: GOAL_P95_MS, ratio: 1, ingestPerSecond: 5000 } };

const sqlite = await prepare({ dialect: 'sqlite', file: sqliteFile }, settings);
writeFileSync(settingsFile, `${JSON.stringify(settings, null, 2)}\n`);
const sqliteTimed = await askApi('sqlite', sqlite.db, sqlite.adminId, list);
await sqlite.db.destroy();
const api: Record<string, Record<string, Stats>> = { sqlite: byFamily(sqliteTimed) };
printFamilies('sqlite', api.sqlite ?? {});
result.generation = { sqlite: sqlite.generation ? { timings: sqlite.generation.timings, counts: sqlite.generation.counts } : 'reused' };

let duckTimed: Timed | null = null;
let duckLoad: DuckLoad | null = null;
const mismatches: Record<string, { url: string; differences: string[] }[]> = {};
if (!process.env.SKIP_DUCKDB) {
  log('loading the raw rows into DuckDB (not timed with the questions):');
  const { duck, load } = await DuckAnalytics.load(sqliteFile, path.join(dataDir, `bench-analytics-${SIZE.users}-csv`));
  duckLoad = load;
  log(`  exported to CSV in ${load.exportSeconds.toFixed(1)} s, loaded in ${load.loadSeconds.toFixed(1)} s`);
  duckTimed = await askDuck(duck, list);
  duck.close();
  printFamilies('duckdb', byFamily(duckTimed));
  mismatches.sqlite = compare('sqlite', sqliteTimed, duckTimed);
}

let ingestion: IngestionResult | null = null;
if (!process.env.SKIP_INGEST) {
  log('ingestion on SQLite (the real server over a copy of the database):');
  ingestion = await measureIngestion(sqliteFile, INGEST, log);
}

let postgresTimed: Timed | null = null;
const pgUrl = process.env.BENCH_DATABASE_URL;
if (pgUrl) {
  await withBenchPostgres(pgUrl, async (config) => {
    const postgres = await prepare(config, settings);
    result.generation = { ...(result.generation as object), postgres: postgres.generation ? { timings: postgres.generation.timings, counts: postgres.generation.counts } : 'reused' };
    postgresTimed = await askApi('postgres', postgres.db, postgres.adminId, list);
    await postgres.db.destroy();
    api.postgres = byFamily(postgresTimed);
    printFamilies('postgres', api.postgres);
    if (duckTimed) mismatches.postgres = compare('postgres', postgresTimed, duckTimed);
  });
}

// --- summary ---

const duckFamilies = duckTimed ? byFamily(duckTimed) : null;
result.api = api;
result.slowest = { sqlite: slowest(sqliteTimed), ...(postgresTimed ? { postgres: slowest(postgresTimed) } : {}) };
if (duckTimed && duckFamilies) {
  result.duckdb = { measuredAt: new Date().toISOString(), load: duckLoad, families: duckFamilies, slowest: slowest(duckTimed) };
}

log(`\nsummary (${SIZE.users.toLocaleString('en')} users, ${SIZE.sessions.toLocaleString('en')} sessions, ${SIZE.exports.toLocaleString('en')} exports, year to ${lastDay}):`);
for (const [dialect, families] of Object.entries(api)) {
  for (const family of [...FAMILIES, 'overall'] as const) {
    const ours = families[family];
    const theirs = duckFamilies?.[family];
    if (!ours) continue;
    const ratio = theirs ? `  ours/DuckDB median ${(ours.median / theirs.median).toFixed(2)} p95 ${(ours.p95 / theirs.p95).toFixed(2)}` : '';
    log(
      `  ${dialect.padEnd(9)} ${family.padEnd(16)} p95 ${ours.p95.toFixed(1).padStart(7)} ms ${ours.p95 < GOAL_P95_MS ? 'ok  ' : 'SLOW'} median ${ours.median.toFixed(1).padStart(7)} ms` +
        (theirs ? `  DuckDB median ${theirs.median.toFixed(1).padStart(7)} ms p95 ${theirs.p95.toFixed(1).padStart(7)} ms${ratio}` : ''),
    );
  }
}
for (const [dialect, found] of Object.entries(mismatches)) log(`  ${dialect}: ${found.length === 0 ? 'answers equal DuckDB' : `${found.length} answers DIFFER from DuckDB`}`);
if (ingestion) {
  log(
    `  ingestion: ${Math.round(ingestion.batch.reportsPerSecond).toLocaleString('en')} reports/s in batches of ${INGEST.batchSize}, ` +
      `${Math.round(ingestion.single.reportsPerSecond).toLocaleString('en')}/s one by one (goal 5,000/s: ${ingestion.batch.reportsPerSecond >= 5000 ? 'ok' : 'MISSED'}); ` +
      `rollups ${ingestion.dashboard.current ? 'current' : 'NOT current'}; retried batch recorded ${ingestion.retriedBatchRecorded}, retried single recorded ${ingestion.retriedSingleRecorded}`,
  );
}

// One entry per data size; a part left out of this run (or data reused) keeps what an earlier run measured.
const resultsFile = path.join(root, 'bench/results/analytics.json');
mkdirSync(path.dirname(resultsFile), { recursive: true });
const previous = existsSync(resultsFile) ? (JSON.parse(readFileSync(resultsFile, 'utf8')) as { runs?: Record<string, Record<string, unknown>> }) : {};
const key = `${SIZE.users} users`;
const before = previous.runs?.[key] ?? {};
const part = (name: string) => (before[name] ?? {}) as Record<string, unknown>;
const generation = Object.fromEntries(
  Object.entries({ ...part('generation'), ...(result.generation as object) }).map(([dialect, value]) => [dialect, value === 'reused' ? (part('generation')[dialect] ?? value) : value]),
);
const merged: Record<string, unknown> = {
  ...before,
  ...result,
  generation,
  api: { ...part('api'), ...api },
  slowest: { ...part('slowest'), ...(result.slowest as object) },
  duckdb: result.duckdb ?? before.duckdb,
  mismatches: { ...part('mismatches'), ...mismatches },
  ingestion: ingestion ?? before.ingestion,
};
const duckdbFamilies = (merged.duckdb as { families?: Record<string, Stats> } | undefined)?.families;
if (duckdbFamilies) merged.ratios = Object.fromEntries(Object.entries(merged.api as Record<string, Record<string, Stats>>).map(([dialect, families]) => [dialect, ratios(families, duckdbFamilies)]));
writeFileSync(resultsFile, `${JSON.stringify({ runs: { ...previous.runs, [key]: merged } }, null, 2)}\n`);
log(`\nwrote ${path.relative(root, resultsFile)}`);
