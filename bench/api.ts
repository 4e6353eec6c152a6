import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';

/**
 * API overhead: GET /api/users/me with a valid token against a bare route of the same app returning the
 * same JSON (same process, plugins, hooks and logger), autocannon on loopback at 50 connections, measured
 * in alternating rounds. Prints median throughput and p99, the throughput ratio and the server's RSS after.
 * Usage: npm run bench [-- --duration 10]
 */
const durationArg = process.argv.indexOf('--duration');
const duration = durationArg > 0 ? Number(process.argv[durationArg + 1]) : 10;
const ROUNDS = 3;
const CONNECTIONS = 50;
const root = path.resolve(import.meta.dirname, '..');

function startServer(): Promise<{ child: ChildProcess; port: number; token: string }> {
  const child = spawn(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'bench/api-server.ts'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout?.once('data', (chunk: Buffer) => resolve({ child, ...JSON.parse(chunk.toString()) }));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

type Target = { path: string; headers: Record<string, string> };

async function round(port: number, target: Target, seconds: number, connections = CONNECTIONS) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${target.path}`,
    connections,
    duration: seconds,
    headers: target.headers,
  });
  const failed = result.non2xx + result.errors;
  if (failed > 0) throw new Error(`${target.path}: ${failed} failed responses`);
  return { requestsPerSecond: result.requests.average, p99Ms: result.latency.p99 };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

// Both routes are measured in alternation on the same server, so a noisy neighbour or a CPU frequency
// change hits both; the figures are medians of the rounds.
const server = await startServer();
const targets: Record<'portal' | 'bare', Target> = {
  portal: { path: '/api/users/me', headers: { authorization: `Bearer ${server.token}` } },
  bare: { path: '/bench/bare', headers: {} },
};
const rounds: Record<'portal' | 'bare', { requestsPerSecond: number; p99Ms: number }[]> = { portal: [], bare: [] };
let portalRss = 0;
try {
  for (const mode of ['portal', 'bare'] as const) await round(server.port, targets[mode], 2, 10);
  for (let i = 0; i < ROUNDS; i += 1) {
    rounds.portal.push(await round(server.port, targets.portal, duration));
    rounds.bare.push(await round(server.port, targets.bare, duration));
  }
  portalRss = rssMb(server.child.pid as number);
} finally {
  server.child.kill('SIGTERM');
}
const summarize = (mode: 'portal' | 'bare') => ({
  requestsPerSecond: median(rounds[mode].map((r) => r.requestsPerSecond)),
  p99Ms: median(rounds[mode].map((r) => r.p99Ms)),
  rounds: rounds[mode],
});
const portal = { ...summarize('portal'), rssMb: portalRss };
const bare = summarize('bare');
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
    `GET /api/users/me, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${duration} s, medians`,
    `  /api/users/me:        ${fmt(portal.requestsPerSecond)} req/s, p99 ${portal.p99Ms} ms, server RSS ${portal.rssMb.toFixed(0)} MB`,
    `  bare route, same app: ${fmt(bare.requestsPerSecond)} req/s, p99 ${bare.p99Ms} ms`,
    `  ratio (portal / bare throughput): ${ratio.toFixed(2)}`,
    '',
  ].join('\n'),
);
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/api.json'), `${JSON.stringify(report, null, 2)}\n`);
