import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/app.js';
import { SystemClock } from '../server/clock.js';
import pg from 'pg';
import type { Config, DatabaseConfig } from '../server/config.js';
import type { Db } from '../server/db/index.js';
import { AccessTokens } from '../server/modules/auth/access-tokens.js';
import { OfflineTokens } from '../server/modules/auth/offline-tokens.js';
import { Sessions } from '../server/modules/auth/sessions.js';

/**
 * The real app over `db` for in-process benchmarks (`inject`: routing, validation, query, serialisation;
 * no network): production settings, no SPA, mail or payment provider, no rate limit. `adminToken` signs
 * an access token for an admin's id.
 */
export async function benchApp(db: Db) {
  const config = {
    nodeEnv: 'production',
    appUrl: 'http://localhost',
    jwtSecret: randomBytes(48).toString('base64url'),
    logLevel: 'silent',
    spaDir: path.join(os.tmpdir(), 'no-spa'),
    mailTransport: 'smtp',
    smtpUrl: 'smtp://127.0.0.1:2525',
    mailFrom: 'bench <bench@localhost>',
    social: { standins: false, google: null, facebook: null },
    rateLimitPerAddress: 1_000_000,
    staffTwoFactor: 'optional',
    billing: { sandbox: false, apiKey: '', environment: '', clientToken: '', webhookSecret: '' },
  } as unknown as Config;
  const clock = new SystemClock();
  const app = await buildApp({ config, db, clock });
  const tokens = new AccessTokens(config.jwtSecret, clock);
  const sessions = new Sessions(db.kysely, clock, tokens, new OfflineTokens(db.kysely, clock), config.appUrl);
  // An access token belongs to a session: the bench signs in as the admin would.
  const adminToken = async (adminId: string) =>
    (await sessions.start({ id: adminId, roles: ['admin', 'user'] }, { method: 'admin', remember: false, client: { userAgent: 'bench', address: '127.0.0.1' } })).access_token;
  return { app, adminToken };
}

/**
 * Runs `work` on a PostgreSQL database of its own beside `adminUrl`: a fresh one dropped afterwards, or,
 * with BENCH_KEEP_DATABASE=name, that one kept (and reused next time) to look at plans afterwards.
 */
export async function withBenchPostgres<T>(adminUrl: string, work: (config: DatabaseConfig) => Promise<T>): Promise<T> {
  const keep = process.env.BENCH_KEEP_DATABASE;
  const name = keep ?? `portal_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount ?? 0;
  if (!exists) await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    return await work({ dialect: 'postgres', url: url.toString() });
  } finally {
    if (!keep) await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
