import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MEASURED_ROUTES, round, startBenchServer, stopBenchServer, type RoundResult, type RouteName } from './api-load.js';

/**
 * API overhead: each measured route (bench/api-load.ts: `GET /api/users/me`, `POST /api/desktop/heartbeat`
 * with a device token, `GET /api/users/me/overview`) against a bare route of the same app returning the
 * same JSON (same process, plugins, hooks and logger), autocannon on loopback at 50 connections, in
 * alternating rounds: each round measures every route and then its bare twin. Prints median throughput
 * and p99 of each, the throughput ratios and the server's RSS after; writes bench/results/api.json.
 * Usage: npm run bench:api [-- --duration 10 --rounds 3 --routes me,heartbeat]
 *
 * On a machine others share, read the ratio, not the throughput: both sides of it are measured in the
 * same minute on the same server. The load average before and after is recorded with the figures.
 */
function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : undefined;
}
const duration = Number(argument('duration') ?? 10);
const ROUNDS = Number(argument('rounds') ?? 3);
const only = argument('routes')?.split(',');
const routes = MEASURED_ROUTES.filter((route) => !only || only.includes(route.name));
const CONNECTIONS = 50;
/** Budgets of issue 45 for `GET /api/users/me`: half the bare route's throughput or better, p99 under 10 ms. */
const RATIO_BUDGET = 0.5;
const P99_BUDGET_MS = 10;
const root = path.resolve(import.meta.dirname, '..');

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** The commit measured, marked when the server, contract or bench differ from it; 'unknown' outside a git checkout. */
function commitOf(): string {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    const dirty = git('status', '--porcelain', '--', 'server', 'contract', 'bench').length > 0;
    return `${git('rev-parse', '--short', 'HEAD')}${dirty ? '+changes' : ''}`;
  } catch {
    return 'unknown';
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const loadAverage = () => os.loadavg().map((load) => Number(load.toFixed(2)));

const loadBefore = loadAverage();
const server = await startBenchServer();
const rounds = new Map<RouteName, { portal: RoundResult[]; bare: RoundResult[] }>(routes.map((route) => [route.name, { portal: [], bare: [] }]));
let rss = 0;
try {
  // Warm-up: every route's code compiled and its caches filled before anything counts.
  for (const route of routes) for (const target of ['portal', 'bare'] as const) await round(server, route, target, 2, 10);
  for (let i = 0; i < ROUNDS; i += 1) {
    for (const route of routes) {
      const kept = rounds.get(route.name) as { portal: RoundResult[]; bare: RoundResult[] };
      kept.portal.push(await round(server, route, 'portal', duration, CONNECTIONS));
      kept.bare.push(await round(server, route, 'bare', duration, CONNECTIONS));
    }
  }
  rss = rssMb(server.child.pid as number);
} finally {
  await stopBenchServer(server);
}

const summarize = (results: RoundResult[]) => ({
  requestsPerSecond: Math.round(median(results.map((r) => r.requestsPerSecond))),
  p99Ms: median(results.map((r) => r.p99Ms)),
  rounds: results,
});
const measured = Object.fromEntries(
  routes.map((route) => {
    const kept = rounds.get(route.name) as { portal: RoundResult[]; bare: RoundResult[] };
    const portal = summarize(kept.portal);
    const bare = summarize(kept.bare);
    // The ratio of each round's pair, then their median: a pair shares its minute of the machine.
    const ratio = median(kept.portal.map((r, i) => r.requestsPerSecond / (kept.bare[i] as RoundResult).requestsPerSecond));
    return [route.name, { route: `${route.method} ${route.path}`, portal, bare, throughputRatio: Number(ratio.toFixed(3)) }];
  }),
);
const me = measured.me;
const report = {
  date: new Date().toISOString(),
  commit: commitOf(),
  node: process.version,
  cpus: os.cpus().length,
  loadAverage: { before: loadBefore, after: loadAverage() },
  durationSeconds: duration,
  rounds: ROUNDS,
  connections: CONNECTIONS,
  serverRssMb: Number(rss.toFixed(1)),
  routes: measured,
  budgets: me && {
    meRatioAtLeastHalf: me.throughputRatio >= RATIO_BUDGET,
    meP99Under10ms: me.portal.p99Ms < P99_BUDGET_MS,
    rssUnder200MB: rss < 200,
  },
};
const lines = [
  `${ROUNDS} alternating rounds of ${duration} s at ${CONNECTIONS} connections, medians (load average ${loadBefore.join(' ')} before)`,
  ...Object.values(measured).flatMap((m) => [
    `  ${m.route}: ${m.portal.requestsPerSecond} req/s, p99 ${m.portal.p99Ms} ms; bare route ${m.bare.requestsPerSecond} req/s, p99 ${m.bare.p99Ms} ms; ratio ${m.throughputRatio.toFixed(2)}`,
  ]),
  `  server RSS after the run: ${rss.toFixed(0)} MB`,
  ...(report.budgets ? [`  budgets: ${Object.entries(report.budgets).map(([name, met]) => `${name} ${met ? 'met' : 'MISSED'}`).join(', ')}`] : []),
  '',
];
process.stdout.write(lines.join('\n'));
// Only a run of every route is the record; a run of some (`--routes`) prints its figures and keeps them.
if (!only) {
  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  writeFileSync(path.join(root, 'bench/results/api.json'), `${JSON.stringify(report, null, 2)}\n`);
}
