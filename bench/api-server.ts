import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { InjectOptions } from 'fastify';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/app.js';
import { SystemClock } from '../server/clock.js';
import type { Config } from '../server/config.js';
import { migrateToLatest, openDatabase } from '../server/db/index.js';
import { grantCouponLicence } from '../server/modules/licensing/index.js';
import { seedReleases } from '../server/modules/releases/index.js';
import { hashPassword, UsersRepo } from '../server/modules/users/index.js';
import { HEARTBEAT_BODY } from './api-load.js';

/**
 * The server for bench/api.ts, in its own process so its memory can be read (and `node --cpu-prof` can
 * profile it alone): the real app on SQLite, plus one bare route per measured route. Prints
 * `{ port, token, deviceToken }` on one line once listening.
 *
 * The user is an ordinary customer: verified, a perpetual licence of the 2024 release (so the upgrade
 * price of 2025 is theirs and the desktop application is entitled) and one activated computer.
 */
const logLevel = process.env.LOG_LEVEL ?? 'warn';
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-bench-'));
const config: Config = {
  nodeEnv: 'production',
  port: 0,
  host: '127.0.0.1',
  appUrl: 'http://localhost',
  database: { dialect: 'sqlite', file: path.join(dataDir, 'bench.db') },
  dataDir,
  jwtSecret: randomBytes(48).toString('base64url'),
  mailTransport: 'smtp',
  smtpUrl: 'smtp://127.0.0.1:2525',
  mailFrom: 'Shapelab <no-reply@localhost>',
  adminEmail: 'admin@localhost',
  adminPassword: undefined,
  logLevel,
  spaDir: path.join(dataDir, 'no-spa'),
  social: { standins: false, google: null, facebook: null },
  rateLimitPerAddress: 20,
  staffTwoFactor: 'optional',
  billing: { sandbox: false, apiKey: '', environment: '', clientToken: '', webhookSecret: '' },
};
const clock = new SystemClock();
const db = openDatabase(config.database);
await migrateToLatest(db);
await seedReleases(db.kysely);
const users = new UsersRepo(db);
const now = clock.now().toISOString();
const userId = randomUUID();
await users.insert(
  {
    id: userId,
    email: 'bench@example.com',
    password_hash: await hashPassword('bench password 1'),
    first_name: 'Bench',
    last_name: 'User',
    email_verified_at: now,
    signup_source: 'bench',
    created_at: now,
    updated_at: now,
  },
  ['user'],
);
await db.kysely.transaction().execute((trx) => grantCouponLicence(trx, { userId, release: '2024', code: 'BENCH-2024', grantedAt: now }));

// The bare routes live in the same app (same plugins, hooks, logger and process) and answer the same JSON
// as their portal route without authentication, database or schema: the difference is what the portal
// route itself costs. Their bodies are the portal routes' own first answers.
const bodies: Record<'me' | 'overview' | 'heartbeat', unknown> = { me: null, overview: null, heartbeat: null };
const app = await buildApp({ config, db, clock });
app.get('/bench/bare/me', async () => bodies.me);
app.get('/bench/bare/overview', async () => bodies.overview);
app.post('/bench/bare/heartbeat', async () => bodies.heartbeat);
// BENCH_PROFILE=<file> (bench/api-profile.ts): V8's sampling profiler through the inspector, started and
// stopped by the bench once the server is warm, so the profile holds the load and not the start.
const profileFile = process.env.BENCH_PROFILE;
if (profileFile) {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 250 });
  app.post('/bench/profile/start', async () => {
    await session.post('Profiler.start');
    return { profiling: true };
  });
  app.post('/bench/profile/stop', async () => {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(profileFile, JSON.stringify(profile));
    return { profiling: false };
  });
}
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as { port: number }).port;

async function answer<T>(request: InjectOptions): Promise<T> {
  const response = await app.inject(request);
  if (response.statusCode !== 200) throw new Error(`${String(request.url)}: ${response.statusCode} ${response.body}`);
  return response.json<T>();
}
const { access_token: token } = await answer<{ access_token: string }>({
  method: 'POST',
  url: '/api/auth/login',
  payload: { email: 'bench@example.com', password: 'bench password 1' },
});
const bearer = { authorization: `Bearer ${token}` };
const { deviceToken } = await answer<{ deviceToken: string }>({
  method: 'POST',
  url: '/api/desktop/activate',
  headers: bearer,
  payload: { computerId: 'bench-computer-0001', name: 'Bench computer' },
});
bodies.me = await answer({ method: 'GET', url: '/api/users/me', headers: bearer });
bodies.overview = await answer({ method: 'GET', url: '/api/users/me/overview', headers: bearer });
bodies.heartbeat = await answer({ method: 'POST', url: '/api/desktop/heartbeat', headers: { authorization: `Bearer ${deviceToken}` }, payload: HEARTBEAT_BODY });
process.stdout.write(`${JSON.stringify({ port, token, deviceToken })}\n`);
// A normal exit on signals, so `node --cpu-prof` can write its profile.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));

