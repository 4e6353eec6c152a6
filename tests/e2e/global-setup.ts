import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureSpaBuilt } from '../../scripts/spa-build.js';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    databaseFile: string;
    adminEmail: string;
    adminPassword: string;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Waits for the start banner and reads the admin credentials it printed, as an operator would. */
function waitForBanner(child: ChildProcess): Promise<{ email: string; password: string }> {
  return new Promise((resolve, reject) => {
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
}

/** Builds the SPA if stale and starts the real server (npm start's code path) on a free port and a fresh database. */
export default async function setup(project: TestProject) {
  await ensureSpaBuilt();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-'));
  const databaseFile = path.join(dataDir, 'portal.db');
  const port = await freePort();
  const root = path.resolve(import.meta.dirname, '../..');
  const server = spawn(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'server/main.ts'], {
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
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const admin = await waitForBanner(server);

  project.provide('baseUrl', `http://localhost:${port}`);
  project.provide('databaseFile', databaseFile);
  project.provide('adminEmail', admin.email);
  project.provide('adminPassword', admin.password);

  return async () => {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  };
}
