import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildApp } from './app.js';
import { AdjustableClock, SystemClock } from './clock.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { migrateToLatest, openDatabase } from './db/index.js';
import { claimSqliteFile } from './db/sqlite-owner.js';
import { startSocialStandins } from './modules/oauth/index.js';
import { sandboxBilling, sharedSandboxBilling, startPaddleSandbox } from './sandbox/index.js';
import { UsersRepo, seedAdmin, type SeedResult } from './modules/users/index.js';
import { seedReleases } from './modules/releases/index.js';

const SHUTDOWN_GRACE_MS = 10_000;

function printBanner(config: Config, address: string, seed: SeedResult): void {
  const lines = [
    '',
    `  Shapelab portal is running at ${address}`,
    `  Admin sign-in: ${address}/admin/login`,
    `  Admin email:   ${seed.email}`,
  ];
  if (seed.generatedPassword) {
    lines.push(`  Admin password: ${seed.generatedPassword}  (generated now and shown only this once)`);
  } else if (seed.created) {
    lines.push('  Admin password: the value of ADMIN_PASSWORD');
  } else {
    lines.push('  Admin password: unchanged (it was printed when the admin was first created, or is ADMIN_PASSWORD)');
  }
  lines.push(`  Database: ${config.database.dialect}`);
  if (config.billing.sandbox) lines.push(`  Paddle: offline stand-in at ${config.billing.environment}`);
  if (config.social.standins) {
    lines.push(`  Google and Facebook: local stand-ins (${config.social.google?.issuer}, ${config.social.facebook?.authorizationUrl})`);
  }
  lines.push('');
  // The banner goes to the terminal, not to the structured logs, so the password never lands in log storage.
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** SQLite means one instance: a second server on the same file stops here, saying why. */
function claimSqliteOrExit(database: Config['database']): (() => void) | null {
  if (database.dialect !== 'sqlite') return null;
  try {
    return claimSqliteFile(database.file);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
}

export async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  const clock = config.nodeEnv === 'production' ? new SystemClock() : new AdjustableClock();
  const releaseSqlite = claimSqliteOrExit(config.database);
  const db = openDatabase(config.database);
  await migrateToLatest(db);
  const seed = await seedAdmin(new UsersRepo(db), clock, config.adminEmail, config.adminPassword);
  await seedReleases(db.kysely);

  // Offline, Google and Facebook are local stand-ins on ports of their own (never in production).
  const standins = config.social.standins ? await startSocialStandins(config) : null;
  if (standins) config = { ...config, social: standins.social };

  // Offline, Paddle is the stand-in of server/sandbox/, on a port of its own, on the server's clock; or,
  // for several instances, one shared stand-in (PADDLE_STANDIN_URL) that delivers to the load balancer.
  const { standinUrl } = config.billing;
  if (config.billing.sandbox && standinUrl) config = { ...config, billing: { ...config.billing, ...(await sharedSandboxBilling(standinUrl)) } };
  const paddleSandbox =
    config.billing.sandbox && !standinUrl
      ? await startPaddleSandbox({
          host: config.host,
          clock,
          dataFile: path.join(config.dataDir, 'paddle-sandbox.json'),
          delivery: config.billing.sandboxDelivery ?? 'ordered',
          invoiceBaseUrl: `${config.appUrl}/paddle-sandbox/invoices`,
        })
      : null;
  if (paddleSandbox) config = { ...config, billing: { ...config.billing, ...sandboxBilling(paddleSandbox) } };

  const app = await buildApp({ config, db, clock });
  if (standins) app.addHook('onClose', standins.close);
  if (paddleSandbox) app.addHook('onClose', paddleSandbox.close);
  if (releaseSqlite) app.addHook('onClose', async () => releaseSqlite());
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  if (paddleSandbox) {
    // The stand-in's webhooks reach this server as Paddle's would: over HTTP, signed.
    const { port } = app.server.address() as AddressInfo;
    paddleSandbox.deliverTo(async (rawBody, signature) => {
      await fetch(`http://127.0.0.1:${port}/api/paddle/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'paddle-signature': signature },
        body: rawBody,
      });
    });
  }
  printBanner(config, config.appUrl, seed);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
