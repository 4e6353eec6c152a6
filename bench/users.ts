import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { USER_SORT_FIELDS } from '../contract/users.js';
import type { DatabaseConfig } from '../server/config.js';
import { migrateToLatest, openDatabase, type Db } from '../server/db/index.js';
import { benchApp, withBenchPostgres } from './bench-app.js';

/**
 * The admin users list at a million users (issue "Admin area"): generated rows straight into the
 * database, then `GET /api/users` through the real app (`inject`: routing, validation, query,
 * serialisation; no network) for every sortable column both ways on pages 1-100, skip 500,000, email
 * prefix searches, the grid's filters (issue 21) on pages 1-100, and the CSV export of everyone streamed
 * over a real socket (MB/s and the process's peak RSS). Prints medians and p95 per case and writes
 * bench/results/users.json.
 *
 *   npm run bench:users                     SQLite (a generated file, reused: delete it to regenerate)
 *   BENCH_DATABASE_URL=postgres://... npm run bench:users   PostgreSQL too (a fresh database, dropped after)
 *   USERS=100000 npm run bench:users        a smaller set
 *   BENCH_KEEP_DATABASE=portal_bench_kept  keep the PostgreSQL database (reused next time)
 */
const USERS = Number(process.env.USERS ?? 1_000_000);
const PAGE_SIZE = 25;
const root = path.resolve(import.meta.dirname, '..');

/** The generated users: spread over two years, names and emails varied, flags at realistic rates. */
function generate(dialect: 'sqlite' | 'postgres', count: number) {
  const ts = (expr: string) => (dialect === 'sqlite' ? `strftime('%Y-%m-%dT%H:%M:%fZ', ${expr}, 'unixepoch')` : `to_timestamp(${expr})`);
  const series =
    dialect === 'sqlite'
      ? `with recursive seq(n) as (select 1 union all select n + 1 from seq where n < ${count}) select n from seq`
      : `select n::bigint as n from generate_series(1, ${count}) as n`;
  const hex = (expr: string, width: number) => (dialect === 'sqlite' ? `printf('%0${width}x', ${expr})` : `lpad(to_hex(${expr}), ${width}, '0')`);
  return `insert into users (id, email, password_hash, first_name, last_name, email_verified_at, signup_source, created_at, updated_at,
      newsletter, language, downloaded_at, last_launched_at, google_connected, facebook_connected, is_admin)
    select ${hex('n', 8)} || '-0000-4000-8000-' || ${hex('(n * 7919) % 281474976710655', 12)},
      'u' || ((n * 7919) % 1000003) || '.' || n || '@example.com',
      case when n % 4 = 0 then null else 'bench-not-a-hash' end,
      'Name' || ((n * 7) % 5000),
      'Family' || ((n * 13) % 20000),
      case when n % 10 = 0 then null else ${ts('1700000000 + n * 63 + 600')} end,
      'web',
      ${ts('1700000000 + n * 63')},
      ${ts('1700000000 + n * 63')},
      case when n % 3 = 0 then 1 else 0 end,
      'en',
      case when n % 5 < 3 then ${ts('1700000000 + n * 63 + 3600')} else null end,
      case when n % 2 = 0 then ${ts('1700000000 + n * 63 + 86400')} else null end,
      case when n % 7 = 0 then 1 else 0 end,
      case when n % 11 = 0 then 1 else 0 end,
      case when n % 100000 = 1 then 1 else 0 end
    from (${series}) as s`;
}

async function prepare(config: DatabaseConfig): Promise<Db> {
  const db = openDatabase(config);
  await migrateToLatest(db);
  const { n } = await db.kysely.selectFrom('users').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  if (Number(n) < USERS) {
    const started = performance.now();
    process.stdout.write(`generating ${USERS.toLocaleString('en')} users on ${config.dialect}...`);
    await sql.raw(generate(config.dialect, USERS)).execute(db.kysely);
    // Admins first: the trigger on user_roles recomputes users.is_admin from the roles on every insert.
    await sql.raw(`insert into user_roles (user_id, role) select id, 'admin' from users where is_admin = 1`).execute(db.kysely);
    await sql.raw(`insert into user_roles (user_id, role) select id, 'user' from users`).execute(db.kysely);
    // Plans at realistic rates, through the triggers that keep users.plan (migration 0017): 1 in 9
    // subscribes, 1 in 20 is on a trial, 1 in 50 has an ended subscription, 1 in 13 owns a licence.
    // The ids start with n in hex (see generate), so the modulo picks every nth user on both dialects.
    const nth = (modulo: number, offset: number) =>
      config.dialect === 'sqlite' ? `rowid % ${modulo} = ${offset}` : `('x' || substr(id, 1, 8))::bit(32)::int % ${modulo} = ${offset}`;
    const now = config.dialect === 'sqlite' ? `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')` : 'now()';
    for (const [status, modulo, offset] of [['active', 9, 1], ['trialing', 20, 3], ['canceled', 50, 7]] as const) {
      await sql
        .raw(
          `insert into subscriptions (id, customer_id, user_id, status, price_id, billing_interval, currency_code, created_at, last_event_at)
            select 'sub_${status}_' || id, 'ctm_' || id, id, '${status}', 'pri_bench', 'month', 'USD', created_at, ${now} from users where ${nth(modulo, offset)}`,
        )
        .execute(db.kysely);
    }
    await sql
      .raw(
        `insert into licences (id, user_id, source, edition, channel, release, granted_at)
          select 'lic_' || id, id, 'purchase', 'full', 'paddle', '2025', created_at from users where ${nth(13, 5)}`,
      )
      .execute(db.kysely);
    // What autovacuum does on a live PostgreSQL: statistics and the visibility map (index-only scans).
    for (const statement of config.dialect === 'sqlite' ? ['analyze'] : ['vacuum analyze users', 'vacuum analyze user_roles']) await sql.raw(statement).execute(db.kysely);
    process.stdout.write(` ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  }
  return db;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

/** Filters of the admin grid as the bench asks for them: each kind alone and some combinations. */
const FILTERS = [
  'verified=true',
  'verified=false',
  'admin=true',
  'newsletter=true',
  'signIn=password',
  'signIn=google',
  'signIn=facebook&newsletter=true',
  'plan=free',
  'plan=trial',
  'plan=subscriber',
  'plan=licence-owner&verified=true',
  'verified=true&admin=false&newsletter=false&signIn=google&plan=free',
];

/**
 * Downloads an export over a real socket (inject would hold the whole body), counting its bytes and
 * lines as they arrive and sampling the process's resident memory (the server runs in this process).
 */
async function streamExport(url: string, token: string) {
  const mb = (bytes: number) => bytes / 1024 / 1024;
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const started = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok || !response.body) throw new Error(`${url}: ${response.status}`);
  let bytes = 0;
  let lines = 0;
  const reader = response.body.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    bytes += next.value.byteLength;
    for (const byte of next.value) if (byte === 10) lines++;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { rows: lines - 1, mb: mb(bytes), seconds, mbPerSecond: mb(bytes) / seconds, rssBeforeMb: mb(rssBefore), peakRssMb: mb(peak) };
}

async function measure(label: string, dialect: string, db: Db) {
  const { app, adminToken } = await benchApp(db);
  const adminRow = await db.kysely.selectFrom('users').select('id').where('is_admin', '=', 1).executeTakeFirstOrThrow();
  const token = await adminToken(adminRow.id);
  const time = async (url: string) => {
    const started = performance.now();
    const response = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    const elapsed = performance.now() - started;
    if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    return elapsed;
  };
  const results: Record<string, { median: number; p95: number; max: number; n: number }> = {};
  const record = (name: string, samples: number[]) => {
    const sorted = [...samples].sort((a, b) => a - b);
    results[name] = { median: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), max: sorted[sorted.length - 1] ?? NaN, n: samples.length };
    process.stdout.write(`  ${label} ${name.padEnd(32)} median ${quantile(sorted, 0.5).toFixed(1).padStart(7)} ms  p95 ${quantile(sorted, 0.95).toFixed(1).padStart(7)} ms\n`);
  };

  await time(`/api/users?skip=0&take=${PAGE_SIZE}`); // warm-up
  const allPages: number[] = [];
  for (const field of USER_SORT_FIELDS) {
    const samples: number[] = [];
    for (const direction of ['asc', 'desc']) {
      for (let page = 0; page < 100; page++) samples.push(await time(`/api/users?sortField=${field}&sortDirection=${direction}&skip=${page * PAGE_SIZE}&take=${PAGE_SIZE}`));
    }
    allPages.push(...samples);
    record(`pages 1-100 ${field}`, samples);
  }
  record('pages 1-100 every column', allPages);
  const deep: number[] = [];
  for (const field of USER_SORT_FIELDS) {
    for (const direction of ['asc', 'desc']) deep.push(await time(`/api/users?sortField=${field}&sortDirection=${direction}&skip=500000&take=${PAGE_SIZE}`));
  }
  record('skip 500000 every column', deep);
  const search: number[] = [];
  for (let index = 0; index < 200; index++) {
    const prefix = `u${(index * 7919) % 100000}`.slice(0, 3 + (index % 4));
    search.push(await time(`/api/users?search=${encodeURIComponent(prefix)}&skip=0&take=${PAGE_SIZE}`));
  }
  record('search email prefix', search);
  const searchSorted: number[] = [];
  for (let index = 0; index < 50; index++) searchSorted.push(await time(`/api/users?search=u${100 + index}&sortField=lastName&sortDirection=asc&skip=0&take=${PAGE_SIZE}`));
  record('search email prefix, sorted', searchSorted);

  // Issue 21: the grid's filters, alone and combined, on pages 1-100 in the default order and sorted.
  const filtered: number[] = [];
  for (const filter of FILTERS) {
    const samples: number[] = [];
    for (const order of ['', '&sortField=lastName&sortDirection=asc', '&sortField=lastLaunchedAt&sortDirection=desc']) {
      for (let page = 0; page < 100; page += 3) samples.push(await time(`/api/users?${filter}${order}&skip=${page * PAGE_SIZE}&take=${PAGE_SIZE}`));
    }
    filtered.push(...samples);
    record(`filter ${filter}`, samples);
  }
  record('filtered pages 1-100, every filter', filtered);
  const filteredSearch: number[] = [];
  for (let index = 0; index < 50; index++) {
    filteredSearch.push(await time(`/api/users?search=u${(index * 7919) % 1000}&${FILTERS[index % FILTERS.length]}&skip=0&take=${PAGE_SIZE}`));
  }
  record('filtered search', filteredSearch);

  const exports: Record<string, { rows: number; mb: number; seconds: number; mbPerSecond: number; rssBeforeMb: number; peakRssMb: number }> = {};
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  for (const [name, query] of [
    ['export everyone', ''],
    ['export verified newsletter readers by last name', 'verified=true&newsletter=true&sortField=lastName&sortDirection=asc'],
  ] as const) {
    exports[name] = await streamExport(`${address}/api/users/export?${query}`, token);
    const figure = exports[name];
    process.stdout.write(
      `  ${label} ${name.padEnd(48)} ${figure.rows.toLocaleString('en')} rows, ${figure.mb.toFixed(0)} MB in ${figure.seconds.toFixed(1)} s: ${figure.mbPerSecond.toFixed(1)} MB/s; RSS ${figure.rssBeforeMb.toFixed(0)} MB before, peak ${figure.peakRssMb.toFixed(0)} MB\n`,
    );
  }
  await app.close();
  return { dialect, users: USERS, pageSize: PAGE_SIZE, results, exports };
}

const runs = [];
const sqliteDir = path.join(root, 'data');
mkdirSync(sqliteDir, { recursive: true });
const sqliteFile = path.join(sqliteDir, `bench-users-${USERS}.db`);
if (!existsSync(sqliteFile)) process.stdout.write(`(SQLite file ${sqliteFile} will be created)\n`);
runs.push(await measure('sqlite', 'sqlite', await prepare({ dialect: 'sqlite', file: sqliteFile })));

const pgUrl = process.env.BENCH_DATABASE_URL;
if (pgUrl) {
  runs.push(await withBenchPostgres(pgUrl, async (config) => measure('postgres', 'postgres', await prepare(config))));
}
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/users.json'), `${JSON.stringify({ date: new Date().toISOString(), runs }, null, 2)}\n`);
