import { performance } from 'node:perf_hooks';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { ExportFormat } from '../contract/licensing.js';
import type { Db, Dialect } from '../server/db/index.js';
import type { Database } from '../server/db/schema.js';
import { rebuildAnalytics } from '../server/modules/analytics/rebuild.js';

/**
 * Realistic usage analytics written straight into the database (issue "Usage analytics and cohorts"):
 * users signing up over `days` days (more of them lately), about 70% activating a computer through a
 * channel, sessions from a minority of heavy users and fading with each user's account age (so retention
 * falls off as it does in life), exports, launches and sales; then every rollup rebuilt from the raw rows.
 *
 * Everything is set-based SQL, the same arithmetic on both dialects: each value is a pseudo-random
 * function of the row's number, so SQLite and PostgreSQL hold the very same rows for the same options
 * (the benchmark compares both with DuckDB over one copy). Raw rows are written in primary-key order
 * (user, then report), so millions of inserts append to the indexes instead of scattering over them.
 */

export interface AnalyticsDataOptions {
  users: number;
  sessions: number;
  exports: number;
  days: number;
  /** The last instant of the data: no sign-up or session starts after it. */
  end: Date;
  /** Share of sessions flagged suspicious (default 0.02). */
  suspiciousShare?: number;
  /** Application starts (default one per two sessions). */
  launches?: number;
  /** Give the first generated user the admin role when the database has no admin yet (default true). */
  ensureAdmin?: boolean;
  /** Where the timings of each step go (default stdout). */
  log?: (line: string) => void;
}

export interface GeneratedAnalytics {
  /** An admin of the database (for signing the benchmark's token), or null when it has none. */
  adminId: string | null;
  counts: Record<'users' | 'activations' | 'sessions' | 'exports' | 'launches' | 'sales', number>;
  /** Seconds per step. */
  timings: Record<string, number>;
}

/** Generated users are recognisable by their address, so a demo seed can replace its own users and nothing else. */
export const GENERATED_EMAIL_DOMAIN = 'analytics.example.com';

/** How activations spread over the channels (contract/analytics.ts): mostly website downloads and subscriptions. */
const CHANNEL_SHARES: [string, number][] = [
  ['direct', 0.38],
  ['subscription', 0.28],
  ['steam', 0.12],
  ['perpetual-2024', 0.08],
  ['metapc-store', 0.06],
  ['android', 0.05],
  ['viveport', 0.03],
];

/** Exported file formats: OBJ and STL for printing and sculpting most, the others less. */
const FORMAT_SHARES: [ExportFormat, number][] = [
  ['obj', 0.3],
  ['stl', 0.28],
  ['fbx', 0.12],
  ['gltf', 0.1],
  ['glb', 0.08],
  ['ply', 0.05],
  ['usdz', 0.04],
  ['3mf', 0.03],
];

const FIRST_NAMES = ['Anna', 'Ben', 'Chloe', 'David', 'Emma', 'Felix', 'Greta', 'Hugo', 'Ines', 'Jonas', 'Klara', 'Liam', 'Mia', 'Noah', 'Olga', 'Paul'];
const LAST_NAMES = ['Meyer', 'Smith', 'Kovacs', 'Nagy', 'Schmidt', 'Garcia', 'Rossi', 'Novak', 'Weber', 'Brown', 'Horvath', 'Fischer', 'Wagner', 'Toth', 'Martin', 'Lee'];

const DAY_SECONDS = 86_400;
/** Longest session: about four hours. */
const MAX_SESSION_SECONDS = 14_400;
/** Seed offsets per kind of row, so no two rows share a pseudo-random stream (all below 3.4e9: see `random`). */
const SEEDS = { users: 0, sessions: 1_000_000_000, exports: 2_000_000_000, launches: 2_500_000_000 };

/** The SQL that differs between the dialects; everything else is shared text. */
function dialectSql(dialect: Dialect) {
  const postgres = dialect === 'postgres';
  const int = (expr: string) => (postgres ? `floor(${expr})::bigint` : `cast(${expr} as integer)`);
  return {
    postgres,
    int,
    /** Seconds since the epoch as the dialect's timestamp (ISO text with milliseconds on SQLite). */
    ts: (epoch: string) => (postgres ? `to_timestamp(${epoch})` : `strftime('%Y-%m-%dT%H:%M:%fZ', ${epoch}, 'unixepoch')`),
    hex: (expr: string, width: number) => (postgres ? `lpad(to_hex(${expr}), ${width}, '0')` : `printf('%0${width}x', ${expr})`),
    least: postgres ? 'least' : 'min',
    /** Division in double precision on both (PostgreSQL would divide in numeric, rounding differently). */
    real: (expr: string) => (postgres ? `(${expr})::float8` : `(${expr} * 1.0)`),
    /** Keeps a subquery from being merged into its parent, so the columns it computes are computed once. */
    fence: postgres ? ' offset 0' : ' limit -1 offset 0',
    greatest: postgres ? 'greatest' : 'max',
    series: (count: number) =>
      postgres
        ? `select n::bigint as n from generate_series(1, ${count}) as n`
        : `with recursive seq(n) as (select 1 union all select n + 1 from seq where n < ${count}) select n from seq`,
    /**
     * A pseudo-random number in [0, 1) from an integer seed below 3.4e9: a Weyl step then two squarings
     * modulo the prime 2^31 - 1 (nonlinear, so neighbouring seeds give unrelated values). Integer
     * arithmetic stays below 2^63 on both dialects, so both compute the same bits.
     */
    random: (seed: string) => {
      const a = `((${seed}) * 2654435761 + 97) % 2147483647`;
      const b = `((${a}) * (${a})) % 2147483647`;
      const c = `((${b}) * 48271 + 12345) % 2147483647`;
      const d = `((${c}) * (${c})) % 2147483647`;
      return postgres ? `((${d})::float8 / 2147483647)` : `((${d}) / 2147483647.0)`;
    },
  };
}

/** A CASE picking a label by cumulative shares of a uniform number. */
function pick(uniform: string, shares: [string, number][]): string {
  let cumulative = 0;
  const branches = shares.slice(0, -1).map(([label, share]) => {
    cumulative += share;
    return `when ${uniform} < ${cumulative.toFixed(4)} then '${label}'`;
  });
  return `case ${branches.join(' ')} else '${shares[shares.length - 1]?.[0] ?? ''}' end`;
}

function byIndex(index: string, labels: string[]): string {
  return `case ${index} ${labels.map((label, i) => `when ${i} then '${label}'`).join(' ')} end`;
}

type Executor = Kysely<Database> | Transaction<Database>;

async function run(db: Executor, statement: string): Promise<number> {
  const result = await sql.raw(statement).execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

async function count(db: Executor, statement: string): Promise<number> {
  const result = await sql.raw<{ n: number | string | null }>(statement).execute(db);
  return Number(result.rows[0]?.n ?? 0);
}

/**
 * The per-user plan every raw table is generated from (one row per user): sign-up, activation and its
 * channel, how long the user stays (lifetime) and how intensely, and where the user's sessions, exports
 * and launches start in their global numbering (so every report gets a unique, increasing number).
 */
async function createPlan(trx: Transaction<Database>, dialect: Dialect, options: Required<Omit<AnalyticsDataOptions, 'log' | 'ensureAdmin'>>, firstUser: number) {
  const q = dialectSql(dialect);
  const end = Math.floor(options.end.getTime() / 1000);
  const start = end - options.days * DAY_SECONDS;
  const r = (stream: number) => q.random(`n * 16 + ${SEEDS.users + stream}`);
  const temp = q.postgres ? 'create temporary table' : 'create temp table';
  // Lifetime: most users drift away within weeks (the sixth power keeps most of them short), a tenth are
  // heavy users who stay half a year to two years and start the application several times a day.
  await run(
    trx,
    `${temp} bench_users as
     select n, signup, act, activated, channel, heavy, first_index, last_index, verified, sale, sale_fraction,
            case when activated = 1 then ${q.greatest}(0, ${q.least}(lifetime, ${end} - act)) else 0 end as span,
            case when activated = 1 then ${q.int(`100 * intensity * ${q.greatest}(1, ${q.real(`${q.least}(lifetime, ${end} - act)`)} / 86400)`)} else 0 end as w
     from (
       select n, signup, ${q.least}(signup + ${q.int(`r3 * r3 * ${3 * DAY_SECONDS}`)}, ${end}) as act,
              case when r2 < 0.7 then 1 else 0 end as activated,
              ${pick('r4', CHANNEL_SHARES)} as channel,
              case when r5 < 0.1 then 1 else 0 end as heavy,
              case when r5 < 0.1 then ${q.int(`(180 + 550 * r6) * ${DAY_SECONDS}`)} else ${q.int(`(0.5 + 700 * r6 * r6 * r6 * r6 * r6 * r6) * ${DAY_SECONDS}`)} end as lifetime,
              case when r5 < 0.1 then 0.8 + 2 * r7 else 0.1 + 0.6 * r7 end as intensity,
              ${q.int('r10 * 16')} as first_index, ${q.int('r11 * 16')} as last_index,
              case when r12 < 0.9 then 1 else 0 end as verified,
              -- about 8% of all users buy: a store, a plan or a licence, never the bare website download
              case when r2 < 0.7 and r4 >= ${CHANNEL_SHARES[0]?.[1] ?? 0} and r8 < 0.184 then 1 else 0 end as sale,
              r9 as sale_fraction
       from (
         select n, ${start} + ${q.int(`${q.greatest}(r0, r1) * ${options.days * DAY_SECONDS}`)} as signup, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12
         from (select n + ${firstUser - 1} as n, ${Array.from({ length: 13 }, (_, i) => `${r(i)} as r${i}`).join(', ')} from (${q.series(options.users)}) as s${q.fence}) as s${q.fence}
       ) as s${q.fence}
     ) as s`,
  );
  const weight = await count(trx, 'select sum(w) as n from bench_users');
  const activated = await count(trx, 'select sum(activated) as n from bench_users');
  const most = Math.max(options.sessions, options.exports, options.launches);
  if (weight * most >= 9e18 || weight === 0) throw new Error(`cannot spread ${most} reports over a weight of ${weight}`);
  // Report numbers are spread in proportion to the users' weights; telescoping floors add up exactly.
  // Whoever activated a computer used it at least once (when there are sessions enough for that).
  const firstSession = options.sessions >= activated ? 1 : 0;
  const spread = options.sessions - firstSession * activated;
  const share = (total: number, cumulative: string) => `(${total} * (${cumulative})) / ${weight}`;
  const running = (column: string) => (q.postgres ? `(sum(${column}) over (order by n rows unbounded preceding))::bigint` : `sum(${column}) over (order by n rows unbounded preceding)`);
  await run(
    trx,
    `${temp} bench_plan as
     select n, user_id, seat_id, signup, act, activated, channel, span, first_index, last_index, verified, sale, sale_fraction,
            s_first, s_last - s_first as s_count, e_first, e_last - e_first as e_count, l_first, l_last - l_first as l_count
     from (
       select u.*,
              ${q.hex('n', 8)} || '-0000-4000-8000-' || ${q.hex('(n * 7919) % 281474976710655', 12)} as user_id,
              ${q.hex('n', 8)} || '-5ea7-4000-8000-000000000000' as seat_id,
              ${firstSession} * (ca - activated) + ${share(spread, 'cw - w')} as s_first, ${firstSession} * ca + ${share(spread, 'cw')} as s_last,
              ${share(options.exports, 'cw - w')} as e_first, ${share(options.exports, 'cw')} as e_last,
              ${share(options.launches, 'cw - w')} as l_first, ${share(options.launches, 'cw')} as l_last
       from (select *, ${running('w')} as cw, ${running('activated')} as ca from bench_users) as u
     ) as p
     order by n`,
  );
  await run(trx, 'drop table bench_users');
  const longest = await count(trx, `select ${q.greatest}(max(s_count), max(e_count), max(l_count)) as n from bench_plan`);
  if (!q.postgres) {
    await run(trx, 'create temp table bench_seq (j integer primary key)');
    await run(trx, `insert into bench_seq (j) with recursive seq(j) as (select 0 union all select j + 1 from seq where j + 1 < ${Math.max(1, longest)}) select j from seq`);
  }
}

/** Rows `0 .. <count column> - 1` per plan row: a join with a numbers table on SQLite, generate_series on PostgreSQL. */
function perUser(dialect: Dialect, countColumn: string) {
  return dialect === 'postgres'
    ? `bench_plan as p cross join lateral generate_series(0, p.${countColumn} - 1) as s(j) where p.${countColumn} > 0`
    : // CROSS JOIN keeps the plan outside: each user reads its own numbers by rowid, in key order.
      `bench_plan as p cross join bench_seq as s where p.${countColumn} > 0 and s.j < p.${countColumn}`;
}

async function writeRaw(trx: Transaction<Database>, dialect: Dialect, options: Required<Omit<AnalyticsDataOptions, 'log' | 'ensureAdmin'>>, step: (name: string, work: () => Promise<number>) => Promise<number>) {
  const q = dialectSql(dialect);
  const counts = { users: 0, activations: 0, sessions: 0, exports: 0, launches: 0, sales: 0 };
  counts.users = await step('users', () =>
    run(
      trx,
      `insert into users (id, email, password_hash, first_name, last_name, email_verified_at, signup_source, created_at, updated_at,
         newsletter, language, downloaded_at, last_launched_at, google_connected, facebook_connected, is_admin)
       select user_id, lower(${byIndex('first_index', FIRST_NAMES)} || '.' || ${byIndex('last_index', LAST_NAMES)}) || '.' || n || '@${GENERATED_EMAIL_DOMAIN}',
         null, ${byIndex('first_index', FIRST_NAMES)}, ${byIndex('last_index', LAST_NAMES)},
         case when verified = 1 then ${q.ts('signup + 600')} else null end, 'web', ${q.ts('signup')}, ${q.ts('signup')},
         case when n % 3 = 0 then 1 else 0 end, case when n % 5 = 0 then 'de' else 'en' end,
         case when activated = 1 then ${q.ts(`${q.greatest}(signup, act - 60)`)} else null end,
         case when s_count > 0 then ${q.ts('act + span')} else null end, 0, 0, 0
       from bench_plan order by n`,
    ),
  );
  await step('user roles', () => run(trx, `insert into user_roles (user_id, role) select user_id, 'user' from bench_plan order by user_id`));
  counts.activations = await step('activations', () =>
    run(trx, `insert into analytics_activations (user_id, id, channel, activated_at) select user_id, seat_id, channel, ${q.ts('act')} from bench_plan where activated = 1 order by n`),
  );
  await step('user channels', () =>
    run(trx, `insert into analytics_user_channels (user_id, channel, first_at) select user_id, channel, ${q.ts('act')} from bench_plan where activated = 1 order by n`),
  );
  counts.sales = await step('sales', () =>
    run(
      trx,
      `insert into analytics_sales (user_id, id, channel, sold_at)
       select user_id, ${q.hex('n', 8)} || '-5a1e-4000-8000-000000000000', channel, ${q.ts(`act + ${q.int('sale_fraction * span')}`)} from bench_plan where sale = 1 order by n`,
    ),
  );
  // Sessions: more of them early in a user's life (the square), a second to about four hours long
  // (most under an hour), half to all of it played, `suspiciousShare` of them flagged, received a
  // moment after they ended. Each level is fenced so every random number is computed once per row.
  const rs = (stream: number) => q.random(`k * 8 + ${SEEDS.sessions + stream}`);
  counts.sessions = await step('sessions', () =>
    run(
      trx,
      `insert into analytics_sessions (user_id, id, seat_id, started_at, ended_at, length_seconds, suspicious, received_at, channel, played_seconds)
       select user_id, ${q.hex('k', 8)} || '-5e55-4000-8000-' || ${q.hex('n', 12)}, seat_id, ${q.ts('started')}, ${q.ts('started + length')}, length, suspicious,
              ${q.ts('started + length + 5 + k % 600')}, channel, ${q.int('length * (0.5 + 0.5 * played)')}
       from (
         select user_id, n, seat_id, channel, k, act + ${q.int('span * r0 * r0')} as started, 1 + ${q.int(`${MAX_SESSION_SECONDS - 1} * r1 * r1 * r1`)} as length,
                r2 as played, case when r3 < ${options.suspiciousShare} then 1 else 0 end as suspicious
         from (
           select user_id, n, seat_id, channel, act, span, k, ${[0, 1, 2, 3].map((i) => `${rs(i)} as r${i}`).join(', ')}
           from (select p.user_id, p.n, p.seat_id, p.channel, p.act, p.span, p.s_first + s.j as k from ${perUser(dialect, 's_count')}${q.fence}) as p${q.fence}
         ) as r${q.fence}
       ) as r`,
    ),
  );
  const re = (stream: number) => q.random(`k * 4 + ${SEEDS.exports + stream}`);
  counts.exports = await step('exports', () =>
    run(
      trx,
      `insert into analytics_exports (user_id, id, format, exported_at, received_at, channel)
       select user_id, ${q.hex('k', 8)} || '-e4a0-4000-8000-' || ${q.hex('n', 12)}, ${pick('r1', FORMAT_SHARES)}, ${q.ts('exported')}, ${q.ts('exported + 30')}, channel
       from (
         select user_id, n, channel, k, act + ${q.int('span * r0 * r0')} as exported, r1
         from (
           select user_id, n, channel, act, span, k, ${re(0)} as r0, ${re(1)} as r1
           from (select p.user_id, p.n, p.channel, p.act, p.span, p.e_first + s.j as k from ${perUser(dialect, 'e_count')}${q.fence}) as p${q.fence}
         ) as r${q.fence}
       ) as r`,
    ),
  );
  const rl = q.random(`k * 2 + ${SEEDS.launches}`);
  counts.launches = await step('launches', () =>
    run(
      trx,
      `insert into analytics_launches (user_id, id, channel, launched_at)
       select user_id, ${q.hex('k', 8)} || '-1a0c-4000-8000-' || ${q.hex('n', 12)}, channel, ${q.ts(`act + ${q.int('span * r0 * r0')}`)}
       from (
         select user_id, n, channel, act, span, k, ${rl} as r0
         from (select p.user_id, p.n, p.channel, p.act, p.span, p.l_first + s.j as k from ${perUser(dialect, 'l_count')}${q.fence}) as p${q.fence}
       ) as r`,
    ),
  );
  return counts;
}

/** Removes the users an earlier run generated; their reports go with them (foreign keys cascade). */
export async function deleteGenerated(db: Db): Promise<number> {
  const result = await db.kysely.deleteFrom('users').where('email', 'like', `%@${GENERATED_EMAIL_DOMAIN}`).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Writes `options.users` users and their reports (numbered after the generated users already there), then
 * rebuilds every rollup from the raw rows. Prints (or logs) how long each step took.
 */
export async function generateAnalytics(db: Db, options: AnalyticsDataOptions): Promise<GeneratedAnalytics> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const settings = {
    users: options.users,
    sessions: options.sessions,
    exports: options.exports,
    days: options.days,
    end: options.end,
    suspiciousShare: options.suspiciousShare ?? 0.02,
    launches: options.launches ?? Math.round(options.sessions / 2),
  };
  const timings: Record<string, number> = {};
  const step = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await work();
    timings[name] = (performance.now() - started) / 1000;
    log(`  ${name.padEnd(16)} ${timings[name].toFixed(1).padStart(7)} s${typeof result === 'number' ? `  ${result.toLocaleString('en')} rows` : ''}`);
    return result;
  };
  const generated = await count(db.kysely, `select count(*) as n from users where email like '%@${GENERATED_EMAIL_DOMAIN}'`);
  const firstUser = generated + 1;
  const started = performance.now();
  if (db.dialect === 'sqlite') await sql.raw('pragma cache_size = -524288').execute(db.kysely); // 512 MiB while writing
  let counts: GeneratedAnalytics['counts'] = { users: 0, activations: 0, sessions: 0, exports: 0, launches: 0, sales: 0 };
  try {
    await db.kysely.transaction().execute(async (trx) => {
      await step('plan', () => createPlan(trx, db.dialect, settings, firstUser));
      counts = await writeRaw(trx, db.dialect, settings, step);
      await run(trx, 'drop table bench_plan');
      if (db.dialect === 'sqlite') await run(trx, 'drop table bench_seq');
    });
    // Statistics (and on PostgreSQL the visibility map) for the rebuild's and the API's plans.
    await step('analyze', () => run(db.kysely, db.dialect === 'sqlite' ? 'analyze' : 'vacuum analyze'));
    await step('rebuild', () => rebuildAnalytics(db.kysely, db.dialect));
    await step('analyze rollups', async () => {
      if (db.dialect === 'sqlite') return run(db.kysely, 'analyze');
      for (const table of ['analytics_user_periods', 'analytics_rollups', 'analytics_user_lifetimes', 'analytics_cohorts']) await run(db.kysely, `vacuum analyze ${table}`);
      return 0;
    });
  } finally {
    if (db.dialect === 'sqlite') await sql.raw('pragma cache_size = -2000').execute(db.kysely);
  }
  timings.total = (performance.now() - started) / 1000;
  log(`  ${'total'.padEnd(16)} ${timings.total.toFixed(1).padStart(7)} s`);

  let admin = await db.kysely.selectFrom('user_roles').select('user_id').where('role', '=', 'admin').orderBy('user_id').executeTakeFirst();
  if (!admin && (options.ensureAdmin ?? true) && counts.users > 0) {
    const first = await db.kysely.selectFrom('users').select('id').where('email', 'like', `%.${firstUser}@${GENERATED_EMAIL_DOMAIN}`).executeTakeFirstOrThrow();
    await db.kysely.insertInto('user_roles').values({ user_id: first.id, role: 'admin' }).execute();
    admin = { user_id: first.id };
  }
  return { adminId: admin?.user_id ?? null, counts, timings };
}
