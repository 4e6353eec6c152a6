import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import { expect, it } from 'vitest';
import { startPortal } from '../../scripts/portal-process.js';

/** The pids of the processes started by `pid` (Linux: the fourth field of /proc/<pid>/stat is the parent). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(') ') + 2).split(' ')[1]) === pid;
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

/**
 * The server itself, whatever launcher started it: the deepest process in `pid`'s tree that runs
 * server/main.ts (the server's own helpers, such as esbuild's service, run other programs).
 */
function serverProcess(pid: number): number {
  const runsServer = (candidate: number) => readFileSync(`/proc/${candidate}/cmdline`, 'utf8').includes('server/main.ts');
  const child = childrenOf(pid).find(runsServer);
  return child === undefined ? pid : serverProcess(child);
}

/**
 * Issue 19: a SIGTERM (a deploy, a scale-in) drains the instance. New requests are refused, readiness
 * stops answering "ready", running requests and background work finish, open event streams end with a
 * retry hint so browsers reconnect to another instance, and the process exits 0 within its grace period.
 */
it('SIGTERM ends event streams with a retry hint, lets running work finish and exits 0', async () => {
  const portal = await startPortal();
  try {
    const login = await fetch(`${portal.url}/api/auth/admin-login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: portal.adminEmail, password: portal.adminPassword }),
    });
    const { access_token: token } = (await login.json()) as { access_token: string };
    expect((await fetch(`${portal.url}/api/health/ready`)).status).toBe(200);

    const stream = await fetch(`${portal.url}/api/events`, { headers: { authorization: `Bearer ${token}` } });
    expect(stream.status).toBe(200);
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let received = '';
    while (!received.includes(': connected')) received += decoder.decode((await reader.read()).value);
    const beforeShutdown = received.length;

    // A password reset answered just before the signal: its mail is written after the answer and must not be lost.
    const reset = await fetch(`${portal.url}/api/users/forget-password/${encodeURIComponent(portal.adminEmail)}`);
    expect(reset.status).toBe(200);

    // The deploy's signal goes to the process the launcher started, while the server is busy (stopped for
    // 300 ms here): nothing between the signal and the server may give up on it and kill it.
    const exited = once(portal.child, 'exit');
    const started = Date.now();
    const server = serverProcess(portal.child.pid as number);
    process.kill(server, 'SIGSTOP');
    portal.child.kill('SIGTERM');
    await sleep(300);
    try {
      process.kill(server, 'SIGCONT');
    } catch {
      // Killed while stopped: the checks below say what was lost.
    }
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      received += decoder.decode(chunk.value);
    }
    const closing = received.slice(beforeShutdown);
    expect(closing).toMatch(/retry: \d+\n/);
    expect(closing).toContain(': shutting down');

    const [code] = (await exited) as [number | null];
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    await expect(fetch(`${portal.url}/api/health`)).rejects.toThrow();
    const database = new SQLite(portal.databaseFile, { readonly: true });
    try {
      const mails = database.prepare('select count(*) as n from outbox where to_address = ?').get(portal.adminEmail) as { n: number };
      expect(mails.n).toBe(1);
    } finally {
      database.close();
    }
  } finally {
    await portal.stop();
  }
}, 60_000);
