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

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts the real server (server/main.ts, as `npm start` runs it) on a free port and a fresh SQLite file,
 * and reads the admin credentials from the printed banner. Used by the e2e suite and the benchmarks.
 */
export async function startPortal(extraEnv: Record<string, string> = {}): Promise<PortalProcess> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-run-'));
  const databaseFile = path.join(dataDir, 'portal.db');
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'server/main.ts'], {
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
