import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface PortalProcess {
  url: string;
  databaseFile: string;
  adminEmail: string;
  adminPassword: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

const root = path.resolve(import.meta.dirname, '..');

/**
 * Ports handed out by this process: two callers in one process never get the same one.
 */
const handedOut = new Set<number>();

/** Listens on the port for a moment: free now (nobody listens there), or not. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * A free port for a server this process starts a moment later. Chosen below Linux's ephemeral range
 * (32768 and up, where `listen(0)` and every outgoing connection take their local ports): a port from
 * that range can be taken by an unrelated outgoing connection between the probe and the server's listen
 * (CI saw EADDRINUSE this way when three instances started at once).
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (handedOut.has(port)) continue;
    if (await canListen(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error('no free port between 20000 and 32000');
}

/**
 * Starts the real server (server/main.ts, as `npm start` runs it) on a free port and a fresh SQLite file,
 * and reads the admin credentials from the printed banner. Used by the e2e suite and the benchmarks.
 */
export async function startPortal(extraEnv: Record<string, string> = {}): Promise<PortalProcess> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-run-'));
  const databaseFile = path.join(dataDir, 'portal.db');
  const port = await freePort();
  // One process, tsx as its loader: a signal reaches the server itself. tsx's CLI would run the server as
  // its own child and relay a signal, killing that child outright when it has not answered within 30 ms,
  // so a busy instance was killed mid-drain instead of draining.
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${databaseFile}`,
      APP_URL: `http://localhost:${port}`,
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: '',
      ADMIN_PASSWORD: '',
      // Every browser test signs in from 127.0.0.1; the limit itself is tested in tests/api.
      RATE_LIMIT_PER_ADDRESS: '1000',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const admin = await new Promise<{ email: string; password: string }>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const email = /Admin email:\s+(\S+)/.exec(output)?.[1];
      const password = /Admin password: (\S+) {2}\(generated/.exec(output)?.[1];
      if (email && password) {
        clearTimeout(timer);
        resolve({ email, password });
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return {
    url: `http://localhost:${port}`,
    databaseFile,
    adminEmail: admin.email,
    adminPassword: admin.password,
    child,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
