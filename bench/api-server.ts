import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { buildApp } from '../server/app.js';
import { SystemClock } from '../server/clock.js';
import type { Config } from '../server/config.js';
import { migrateToLatest, openDatabase } from '../server/db/index.js';
import { hashPassword } from '../server/modules/auth/passwords.js';
import { UsersRepo } from '../server/modules/users/repo.js';
import { getMe } from '../server/modules/users/service.js';

/**
 * One server for bench/api.ts, in its own process so its memory can be read: `portal` is the real app
 * (SQLite, helmet, auth, schemas); `bare` is a plain Fastify route answering the same JSON with the same
 * logger settings. Prints `{ port, token }` on one line once listening.
 */
const mode = process.argv[2];
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
  adminEmail: 'admin@localhost',
  adminPassword: undefined,
  logLevel,
  spaDir: path.join(dataDir, 'no-spa'),
};
const clock = new SystemClock();
const db = openDatabase(config.database);
await migrateToLatest(db);
const users = new UsersRepo(db.kysely);
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

let port: number;
let token = '';
if (mode === 'portal') {
  const app = await buildApp({ config, db, clock });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: 'bench@example.com', password: 'bench password 1' },
  });
  token = login.json<{ access_token: string }>().access_token;
} else {
  const body = await getMe(users, userId);
  const bare = Fastify({ logger: logLevel === 'silent' ? false : { level: logLevel } });
  bare.get('/api/users/me', async () => body);
  await bare.listen({ port: 0, host: '127.0.0.1' });
  port = (bare.server.address() as { port: number }).port;
}
process.stdout.write(`${JSON.stringify({ port, token })}\n`);
