import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';

/**
 * API overhead: GET /api/users/me with a valid token on the real app, against a bare Fastify route
 * returning the same JSON, each in its own process, autocannon on loopback at 50 connections.
 * Prints throughput, p99 latency, the throughput ratio and the portal server's RSS after its run.
 * Usage: npm run bench [-- --duration 10]
 */
const durationArg = process.argv.indexOf('--duration');
const duration = durationArg > 0 ? Number(process.argv[durationArg + 1]) : 10;
const CONNECTIONS = 50;
const root = path.resolve(import.meta.dirname, '..');

function startServer(mode: 'portal' | 'bare'): Promise<{ child: ChildProcess; port: number; token: string }> {
  const child = spawn(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'bench/api-server.ts', mode], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout?.once('data', (chunk: Buffer) => resolve({ child, ...JSON.parse(chunk.toString()) }));
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
  });
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

async function measure(mode: 'portal' | 'bare') {
  const server = await startServer(mode);
  const headers = server.token ? { authorization: `Bearer ${server.token}` } : {};
  // Warm up the JIT and the connection pool before measuring.
  await autocannon({ url: `http://127.0.0.1:${server.port}/api/users/me`, connections: 10, duration: 2, headers });
  const result = await autocannon({
    url: `http://127.0.0.1:${server.port}/api/users/me`,
    connections: CONNECTIONS,
    duration,
    headers,
  });
  const rss = rssMb(server.child.pid as number);
  server.child.kill('SIGTERM');
  const non2xx = result.non2xx + result.errors;
  if (non2xx > 0) throw new Error(`${mode}: ${non2xx} failed responses`);
  return { requestsPerSecond: result.requests.average, p99Ms: result.latency.p99, rssMb: rss };
}

const portal = await measure('portal');
const bare = await measure('bare');
const ratio = portal.requestsPerSecond / bare.requestsPerSecond;
const report = {
  date: new Date().toISOString(),
  durationSeconds: duration,
  connections: CONNECTIONS,
  portal,
  bare,
  throughputRatio: Number(ratio.toFixed(3)),
  budgets: {
    ratioAtLeastHalf: ratio >= 0.5,
    p99Under25ms: portal.p99Ms < 25,
    rssUnder200MB: portal.rssMb < 200,
  },
};
const fmt = (n: number) => n.toFixed(0);
process.stdout.write(
  [
    `GET /api/users/me, ${CONNECTIONS} connections, ${duration} s each`,
    `  portal: ${fmt(portal.requestsPerSecond)} req/s, p99 ${portal.p99Ms} ms, RSS ${portal.rssMb.toFixed(0)} MB`,
    `  bare:   ${fmt(bare.requestsPerSecond)} req/s, p99 ${bare.p99Ms} ms`,
    `  ratio (portal / bare throughput): ${ratio.toFixed(2)}`,
    '',
  ].join('\n'),
);
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/api.json'), `${JSON.stringify(report, null, 2)}\n`);
