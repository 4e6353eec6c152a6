import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import SQLite from 'better-sqlite3';
import type { AnalyticsResponse } from '../contract/analytics.js';
import { ACTIVATION_CHANNELS } from '../contract/licensing.js';
import { SystemClock } from '../server/clock.js';
import { openDatabase } from '../server/db/index.js';
import { AccessTokens } from '../server/modules/auth/access-tokens.js';
import { OfflineTokens } from '../server/modules/auth/offline-tokens.js';
import { Sessions } from '../server/modules/auth/sessions.js';
import { addDays, dayOf } from '../server/modules/analytics/periods.js';
import { freePort } from '../scripts/portal-process.js';

/**
 * Ingestion on SQLite (issue "Usage analytics and cohorts": at least 5,000 session reports a second,
 * rollups kept current): the real server (server/main.ts, as `npm start` runs it) in its own process over
 * a copy of the generated database, desktop clients activating computers and then posting session
 * reports as fast as the server acknowledges them, in batches (`POST /api/desktop/reports`) and one by
 * one (`POST /api/desktop/sessions`). Afterwards the dashboard's session total for those days must have
 * grown by exactly the number of reports acknowledged as recorded, and a retried report must count once.
 */

const root = path.resolve(import.meta.dirname, '..');
const DAY_MS = 86_400_000;

export interface IngestionOptions {
  seconds: number;
  /** Requests in flight at once. */
  concurrency: number;
  /** Users, each with one activated computer, the reports come from. */
  devices: number;
  batchSize: number;
}

export interface IngestionPhase {
  requests: number;
  failed: number;
  recorded: number;
  seconds: number;
  reportsPerSecond: number;
  latencyMs: { median: number; p95: number };
}

export interface IngestionResult {
  measuredAt: string;
  options: IngestionOptions;
  batch: IngestionPhase;
  single: IngestionPhase;
  retriedBatchRecorded: number;
  retriedSingleRecorded: boolean;
  dashboard: { from: string; to: string; sessionsBefore: number; sessionsAfter: number; acknowledged: number; current: boolean };
  rawSessionsStored: number;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

/** One session report as the desktop application sends it: in the last three days, ended before now. */
function sessionReport(now: number) {
  const lengthSeconds = 1 + Math.floor(Math.random() ** 3 * 14_399);
  const startedAt = now - lengthSeconds * 1000 - 60_000 - Math.floor(Math.random() * (3 * DAY_MS - lengthSeconds * 1000 - 3_600_000));
  return {
    id: randomUUID(),
    startedAt: new Date(startedAt).toISOString(),
    endedAt: new Date(startedAt + lengthSeconds * 1000).toISOString(),
    lengthSeconds,
    playedSeconds: Math.floor(lengthSeconds * (0.5 + Math.random() / 2)),
    suspicious: Math.random() < 0.02,
  };
}

async function startServer(databaseFile: string, jwtSecret: string) {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${databaseFile}`,
      APP_URL: `http://localhost:${port}`,
      JWT_SECRET: jwtSecret,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_ADDRESS: '1000000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 120_000);
    const ready = () => {
      if (output.includes('is running at')) {
        clearTimeout(timer);
        child.stdout.off('data', ready);
        resolve();
      }
    };
    child.stdout.on('data', ready);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function post<T>(url: string, token: string, body: unknown): Promise<{ ok: boolean; status: number; body: T }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
  const text = await response.text();
  return { ok: response.ok, status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

/** Runs `concurrency` loops of `send` for `seconds`; each call answers how many reports it got recorded. */
async function phase(seconds: number, concurrency: number, send: (index: number) => Promise<number | null>): Promise<IngestionPhase> {
  const latencies: number[] = [];
  let requests = 0;
  let failed = 0;
  let recorded = 0;
  let next = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const begun = performance.now();
        const result = await send(next++);
        latencies.push(performance.now() - begun);
        requests++;
        if (result === null) failed++;
        else recorded += result;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { requests, failed, recorded, seconds: elapsed, reportsPerSecond: recorded / elapsed, latencyMs: { median: quantile(latencies, 0.5), p95: quantile(latencies, 0.95) } };
}

export async function measureIngestion(sourceFile: string, options: IngestionOptions, log: (line: string) => void): Promise<IngestionResult> {
  const dir = path.join(path.dirname(sourceFile), 'bench-analytics-ingest');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'portal.db');
  let started = performance.now();
  // Everything into the main file first, so the copy is the whole database.
  const source = new SQLite(sourceFile);
  source.pragma('wal_checkpoint(TRUNCATE)');
  source.close();
  copyFileSync(sourceFile, file);
  log(`  copied the database in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // The reporting users, and an admin to read the dashboard with.
  const db = openDatabase({ dialect: 'sqlite', file });
  const runId = randomBytes(3).toString('hex');
  const now = new Date().toISOString();
  const users = Array.from({ length: options.devices }, (_, index) => ({ id: randomUUID(), email: `ingest-${runId}-${index}@bench.example.com` }));
  await db.kysely.transaction().execute(async (trx) => {
    await trx
      .insertInto('users')
      .values(users.map((user) => ({ id: user.id, email: user.email, password_hash: null, first_name: 'Ingest', last_name: 'Bench', email_verified_at: now, signup_source: 'bench', created_at: now, updated_at: now })))
      .execute();
    await trx
      .insertInto('user_roles')
      .values(users.map((user) => ({ user_id: user.id, role: 'user' as const })))
      .execute();
  });
  const admin = await db.kysely.selectFrom('user_roles').select('user_id').where('role', '=', 'admin').executeTakeFirstOrThrow();
  // Access tokens belong to a session: one per reporting user and one for the admin, as sign-ins would make.
  const jwtSecret = randomBytes(48).toString('base64url');
  const clock = new SystemClock();
  const tokens = new AccessTokens(jwtSecret, clock);
  const sessions = new Sessions(db.kysely, clock, tokens, new OfflineTokens(db.kysely, clock), 'http://localhost:3000');
  const bench = { method: 'password' as const, remember: false, client: { userAgent: 'bench', address: '127.0.0.1' } };
  const adminToken = (await sessions.start({ id: admin.user_id, roles: ['admin', 'user'] }, bench)).access_token;
  const userTokens = new Map<string, string>();
  for (const user of users) userTokens.set(user.id, (await sessions.start({ id: user.id, roles: ['user'] }, bench)).access_token);
  await db.destroy();

  started = performance.now();
  const server = await startServer(file, jwtSecret);
  log(`  server listening at ${server.url} after ${((performance.now() - started) / 1000).toFixed(1)} s`);
  try {
    const devices: string[] = [];
    for (let index = 0; index < users.length; index += options.concurrency) {
      const activated = await Promise.all(
        users.slice(index, index + options.concurrency).map(async (user, offset) => {
          const channel = (index + offset) % 3 === 0 ? ACTIVATION_CHANNELS[(index + offset) % ACTIVATION_CHANNELS.length] : undefined;
          const response = await post<{ deviceToken: string }>(`${server.url}/api/desktop/activate`, userTokens.get(user.id) as string, {
            computerId: `bench-${runId}-${index + offset}`,
            name: 'Bench workstation',
            ...(channel ? { channel } : {}),
          });
          if (!response.ok) throw new Error(`activation failed: ${response.status} ${JSON.stringify(response.body)}`);
          return response.body.deviceToken;
        }),
      );
      devices.push(...activated);
    }
    log(`  ${devices.length} computers activated`);

    const to = dayOf(new Date());
    const from = addDays(to, -3);
    const dashboardSessions = async () => {
      const response = await fetch(`${server.url}/api/analytics?from=${from}&to=${to}&granularity=day`, { headers: { authorization: `Bearer ${adminToken}` } });
      if (!response.ok) throw new Error(`dashboard: ${response.status} ${await response.text()}`);
      return ((await response.json()) as AnalyticsResponse).totals.sessions;
    };
    const device = (index: number) => devices[index % devices.length] ?? '';
    const sessionsBefore = await dashboardSessions();

    let firstBatch: { token: string; body: unknown } | undefined;
    const batch = await phase(options.seconds, options.concurrency, async (index) => {
      const body = { sessions: Array.from({ length: options.batchSize }, () => sessionReport(Date.now())) };
      firstBatch ??= { token: device(index), body };
      const response = await post<{ sessions: number }>(`${server.url}/api/desktop/reports`, device(index), body);
      return response.ok ? response.body.sessions : null;
    });
    log(
      `  batches of ${options.batchSize}: ${batch.recorded.toLocaleString('en')} reports in ${batch.seconds.toFixed(1)} s = ${Math.round(batch.reportsPerSecond).toLocaleString('en')}/s ` +
        `(request median ${batch.latencyMs.median.toFixed(1)} ms, p95 ${batch.latencyMs.p95.toFixed(1)} ms, ${batch.failed} failed)`,
    );
    let firstSingle: { token: string; body: unknown } | undefined;
    const single = await phase(options.seconds, options.concurrency, async (index) => {
      const body = sessionReport(Date.now());
      firstSingle ??= { token: device(index), body };
      const response = await post<{ recorded: boolean }>(`${server.url}/api/desktop/sessions`, device(index), body);
      return response.ok ? Number(response.body.recorded) : null;
    });
    log(
      `  one by one: ${single.recorded.toLocaleString('en')} reports in ${single.seconds.toFixed(1)} s = ${Math.round(single.reportsPerSecond).toLocaleString('en')}/s ` +
        `(request median ${single.latencyMs.median.toFixed(1)} ms, p95 ${single.latencyMs.p95.toFixed(1)} ms, ${single.failed} failed)`,
    );

    // A client retrying after a lost answer: acknowledged again, counted once.
    const retriedBatch = firstBatch ? await post<{ sessions: number }>(`${server.url}/api/desktop/reports`, firstBatch.token, firstBatch.body) : undefined;
    const retriedSingle = firstSingle ? await post<{ recorded: boolean }>(`${server.url}/api/desktop/sessions`, firstSingle.token, firstSingle.body) : undefined;
    const sessionsAfter = await dashboardSessions();
    const acknowledged = batch.recorded + single.recorded;
    const current = sessionsAfter - sessionsBefore === acknowledged;
    log(
      `  dashboard sessions ${from}..${to}: ${sessionsBefore.toLocaleString('en')} -> ${sessionsAfter.toLocaleString('en')} (+${(sessionsAfter - sessionsBefore).toLocaleString('en')}), ` +
        `acknowledged as recorded ${acknowledged.toLocaleString('en')}: ${current ? 'current' : 'MISMATCH'}`,
    );
    await server.stop();

    const check = openDatabase({ dialect: 'sqlite', file });
    const stored = await check.kysely
      .selectFrom('analytics_sessions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(
        'user_id',
        'in',
        users.map((user) => user.id),
      )
      .executeTakeFirstOrThrow();
    await check.destroy();
    return {
      measuredAt: new Date().toISOString(),
      options,
      batch,
      single,
      retriedBatchRecorded: retriedBatch?.body.sessions ?? -1,
      retriedSingleRecorded: retriedSingle?.body.recorded ?? true,
      dashboard: { from, to, sessionsBefore, sessionsAfter, acknowledged, current },
      rawSessionsStored: Number(stored.n),
    };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
