import path from 'node:path';
import { runDesktopCommand } from '../../tools/desktop-commands.js';
import { url } from './browser.js';

/**
 * One run of the desktop stand-in's command line (tools/desktop-client.ts) against the e2e server; each
 * state file under `stateDir` is one simulated computer. Resolves with its exit code and output. The
 * command runs in the test's process (tools/desktop-commands.ts): the same code and the same HTTP calls as
 * the command line, without a process of its own (a Node start and a TypeScript compile, 1.3 CPU s a run).
 */
export function runDesktop(stateDir: string, computer: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return runDesktopCommand(['--api', url('/api'), '--state', path.join(stateDir, `${computer}.json`), ...args]);
}
