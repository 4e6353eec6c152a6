import { execFile } from 'node:child_process';
import path from 'node:path';
import { url } from './browser.js';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * One run of the command-line desktop client (tools/desktop-client.ts) against the e2e server; each
 * state file under `stateDir` is one simulated computer. Resolves with its exit code and output.
 */
export function runDesktop(stateDir: string, computer: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  // One process: tsx's command line would start the client as a child of its own (0.2 CPU s more a run).
  const cli = ['--import', 'tsx', 'tools/desktop-client.ts'];
  const options = ['--api', url('/api'), '--state', path.join(stateDir, `${computer}.json`)];
  return new Promise((resolve) => {
    execFile(process.execPath, [...cli, ...options, ...args], { cwd: root, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}
