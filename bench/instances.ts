import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { freePort } from '../scripts/portal-process.js';
import { withBenchPostgres } from './bench-app.js';

/**
 * Several instances (issue 19): requests/s of GET /api/users/me through the round-robin proxy with two
 * instances against one, on one PostgreSQL database, in alternating rounds (medians), as a ratio.
 * Everything shares this machine: the instances, the proxy (a process of its own), PostgreSQL and the load generator, so on
 * 2 cores the ratio says what a second instance buys here, not what it buys on a machine of its own.
 * Usage: BENCH_DATABASE_URL=postgres://... npm run bench:instances [-- --duration 10]
 */
const durationArg = process.argv.indexOf('--duration');
const duration = durationArg > 0 ? Number(process.argv[durationArg + 1]) : 10;
const ROUNDS = 3;
const CONNECTIONS = 50;
const root = path.resolve(import.meta.dirname, '..');
const adminUrl = process.env.BENCH_DATABASE_URL;
if (!adminUrl) {
  process.stdout.write('bench/instances.ts: skipped, several instances need PostgreSQL (set BENCH_DATABASE_URL)\n');
  process.exit(0);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function startInstance(databaseUrl: string, port: number, jwtSecret: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      JWT_SECRET: jwtSecret,
      APP_URL: 'http://127.0.0.1',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: 'bench-admin@example.com',
      ADMIN_PASSWORD: 'bench-admin-password-1',
      SOCIAL_STANDINS: 'off',
      TRUST_PROXY: '127.0.0.1',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`instance on ${port} exited with ${child.exitCode}`);
    const ready = await fetch(`http://127.0.0.1:${port}/api/health/ready`).then(
      (answer) => answer.status === 200,
      () => false,
    );
    if (ready) return child;
    if (Date.now() > deadline) throw new Error(`instance on ${port} did not get ready`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function startProxyProcess(targets: number[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/round-robin-proxy.ts', ...targets.map(String)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`the proxy exited with ${code}`)));
  });
  return { url, child };
}

const report = await withBenchPostgres(adminUrl, async (config) => {
  if (config.dialect !== 'postgres') throw new Error('PostgreSQL expected');
  const jwtSecret = randomBytes(48).toString('base64url');
  const ports = [await freePort(), await freePort()];
  const instances: ChildProcess[] = [];
  // One proxy process per setup, so the proxy's work is not done in the load generator's process.
  const proxies: { url: string; child: ChildProcess }[] = [];
  try {
    instances.push(await startInstance(config.url, ports[0] as number, jwtSecret));
    instances.push(await startInstance(config.url, ports[1] as number, jwtSecret));
    proxies.push(await startProxyProcess([ports[0] as number]), await startProxyProcess(ports as number[]));
    const signIn = await fetch(`${proxies[0]?.url}/api/auth/admin-login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench-admin@example.com', password: 'bench-admin-password-1' }),
    });
    const { access_token: token } = (await signIn.json()) as { access_token: string };
    const round = async (proxy: { url: string }, seconds: number) => {
      const result = await autocannon({ url: `${proxy.url}/api/users/me`, connections: CONNECTIONS, duration: seconds, headers: { authorization: `Bearer ${token}` } });
      const failed = result.non2xx + result.errors;
      if (failed > 0) throw new Error(`${failed} failed responses through ${proxy.url}`);
      return { requestsPerSecond: result.requests.average, p99Ms: result.latency.p99 };
    };
    const one = proxies[0] as { url: string };
    const two = proxies[1] as { url: string };
    // Warm both instances (JIT, prepared plans, pool connections) before anything counts.
    await round(two, 3);
    const rounds: Record<'one' | 'two', { requestsPerSecond: number; p99Ms: number }[]> = { one: [], two: [] };
    for (let i = 0; i < ROUNDS; i += 1) {
      rounds.one.push(await round(one, duration));
      rounds.two.push(await round(two, duration));
    }
    const summary = (runs: typeof rounds.one) => ({ requestsPerSecond: median(runs.map((r) => r.requestsPerSecond)), p99Ms: median(runs.map((r) => r.p99Ms)), rounds: runs });
    return { one: summary(rounds.one), two: summary(rounds.two) };
  } finally {
    for (const child of [...instances, ...proxies.map((proxy) => proxy.child)]) child.kill('SIGTERM');
    await Promise.all(instances.map((child) => (child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined)));
  }
});

const ratio = report.two.requestsPerSecond / report.one.requestsPerSecond;
const result = { date: new Date().toISOString(), durationSeconds: duration, connections: CONNECTIONS, ...report, ratio: Number(ratio.toFixed(3)) };
process.stdout.write(
  [
    `GET /api/users/me through the round-robin proxy, PostgreSQL, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${duration} s, medians`,
    `  one instance:  ${report.one.requestsPerSecond.toFixed(0)} req/s, p99 ${report.one.p99Ms} ms`,
    `  two instances: ${report.two.requestsPerSecond.toFixed(0)} req/s, p99 ${report.two.p99Ms} ms`,
    `  ratio (two / one): ${ratio.toFixed(2)}`,
    '',
  ].join('\n'),
);
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/instances.json'), `${JSON.stringify(result, null, 2)}\n`);
