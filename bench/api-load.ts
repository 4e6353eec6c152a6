import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';

/**
 * The routes bench/api.ts measures, each against a bare route of the same app that answers the same JSON
 * (bench/api-server.ts registers those): the current user, which every screen and the desktop application
 * ask for; the account home; the desktop application's heartbeat, with its device token.
 */
export type RouteName = 'me' | 'overview' | 'heartbeat';

export interface MeasuredRoute {
  name: RouteName;
  method: 'GET' | 'POST';
  path: string;
  bare: string;
  /** Which token the request carries: the user's access token or the computer's device token. */
  token: 'access' | 'device';
  body?: unknown;
}

/** What the desktop application sends every few minutes while it runs: its version, not a new start. */
export const HEARTBEAT_BODY = { version: '2024.2.3' };

export const MEASURED_ROUTES: MeasuredRoute[] = [
  { name: 'me', method: 'GET', path: '/api/users/me', bare: '/bench/bare/me', token: 'access' },
  { name: 'heartbeat', method: 'POST', path: '/api/desktop/heartbeat', bare: '/bench/bare/heartbeat', token: 'device', body: HEARTBEAT_BODY },
  { name: 'overview', method: 'GET', path: '/api/users/me/overview', bare: '/bench/bare/overview', token: 'access' },
];

export interface BenchServer {
  child: ChildProcess;
  port: number;
  token: string;
  deviceToken: string;
}

const root = path.resolve(import.meta.dirname, '..');

/**
 * Starts bench/api-server.ts in a process of its own: tsx as a loader in that very process (its CLI would
 * run the server in a child of its own, whose memory and profile are not the ones read).
 */
export function startBenchServer(env: Record<string, string> = {}): Promise<BenchServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/api-server.ts'], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout?.once('data', (chunk: Buffer) => resolve({ child, ...(JSON.parse(chunk.toString()) as Omit<BenchServer, 'child'>) }));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
}

/** Stops the server and waits for its exit (a profiled one writes its profile on the way out). */
export function stopBenchServer(server: BenchServer): Promise<void> {
  if (server.child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    server.child.once('exit', () => resolve());
    server.child.kill('SIGTERM');
  });
}

export interface RoundResult {
  requestsPerSecond: number;
  p99Ms: number;
}

/** One round of autocannon on loopback against the portal route or its bare twin; any non-2xx fails the bench. */
export async function round(server: BenchServer, route: MeasuredRoute, target: 'portal' | 'bare', seconds: number, connections: number): Promise<RoundResult> {
  const token = route.token === 'access' ? server.token : server.deviceToken;
  const result = await autocannon({
    url: `http://127.0.0.1:${server.port}${target === 'portal' ? route.path : route.bare}`,
    method: route.method,
    connections,
    duration: seconds,
    headers: {
      ...(target === 'portal' ? { authorization: `Bearer ${token}` } : {}),
      ...(route.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(route.body !== undefined ? { body: JSON.stringify(route.body) } : {}),
  });
  const failed = result.non2xx + result.errors;
  if (failed > 0) throw new Error(`${route.method} ${route.path} (${target}): ${failed} failed responses`);
  return { requestsPerSecond: result.requests.average, p99Ms: result.latency.p99 };
}
