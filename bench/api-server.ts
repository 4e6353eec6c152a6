import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/app.js';
import { SystemClock } from '../server/clock.js';
import type { Config } from '../server/config.js';
import { migrateToLatest, openDatabase } from '../server/db/index.js';
import { meBillingOf } from '../server/modules/billing/index.js';
import { hashPassword, meOf, UsersRepo } from '../server/modules/users/index.js';

/**
 * The server for bench/api.ts, in its own process so its memory can be read: the real app on SQLite,
 * plus one bare route. Prints `{ port, token }` on one line once listening.
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

// The bare route lives in the same app (same plugins, hooks, logger and process) and answers the same
// JSON without authentication, database or schema: the difference is what /users/me itself costs.
const user = await users.findById(userId);
if (!user) throw new Error('bench user missing');
const body = await meOf({ clock, billingFacts: (id, now) => meBillingOf(db.kysely, id, now) }, user);
const app = await buildApp({ config, db, clock });
app.get('/bench/bare', async () => body);
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as { port: number }).port;
const login = await app.inject({
  method: 'POST',
  url: '/api/auth/login',
  payload: { email: 'bench@example.com', password: 'bench password 1' },
});
const token = login.json<{ access_token: string }>().access_token;
process.stdout.write(`${JSON.stringify({ port, token })}\n`);
// A normal exit on signals, so `node --cpu-prof` can write its profile.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));
