import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = path.join(root, 'dist', '.build-stamp');
/** Everything that goes into the SPA bundle. */
const INPUTS = ['src', 'providers', 'contract', 'locales', 'public', 'index.html', 'vite.config.ts', 'package.json'];

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** True when dist/ is missing or older than any source file of the SPA. */
export function spaIsStale(): boolean {
  if (!existsSync(STAMP) || !existsSync(path.join(root, 'dist', 'index.html'))) return true;
  const built = statSync(STAMP).mtimeMs;
  return INPUTS.some((input) => newestMtime(path.join(root, input)) > built);
}

/** Builds the SPA with Vite when it is missing or stale. */
export async function ensureSpaBuilt(log: (line: string) => void = (line) => process.stdout.write(`${line}\n`)) {
  if (!spaIsStale()) return;
  log('Building the web app (dist/ is missing or older than its sources)...');
  // A child process: Vite sets NODE_ENV=production in its own process, which must not leak into the server.
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  // NODE_ENV is forced: inherited from a test runner (NODE_ENV=test) it would produce React's development build.
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error(`vite build failed with exit code ${result.status}`);
  writeFileSync(STAMP, new Date().toISOString());
}
