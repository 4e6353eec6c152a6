import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = path.join(root, 'dist', '.build-stamp');
/** Everything that goes into the SPA bundle: its sources, and the build's configuration and plugins. */
const INPUTS = [
  'src',
  'providers',
  'contract',
  'locales',
  'public',
  'index.html',
  'vite.config.ts',
  'package.json',
  'scripts/bundle-report-plugin.ts',
  'scripts/bundle-weights.ts',
  'scripts/markdown-plugin.ts',
  'scripts/route-chunks.ts',
  'scripts/route-preload-plugin.ts',
];

function addFiles(target: string, into: string[]): void {
  if (!existsSync(target)) return;
  if (!statSync(target).isDirectory()) {
    into.push(target);
    return;
  }
  for (const entry of readdirSync(target).sort()) addFiles(path.join(target, entry), into);
}

/**
 * A digest of the SPA's input files, their names and their contents. Content, not modification times: a
 * probe file written and removed again, a checkout or a `touch` left the times newer than the build and
 * rebuilt dist/ in the middle of a test run, under the browser tests reading it.
 */
export function spaInputsDigest(): string {
  const files: string[] = [];
  for (const input of INPUTS) addFiles(path.join(root, input), files);
  const digest = createHash('sha256');
  for (const file of files) {
    digest.update(path.relative(root, file));
    digest.update('\0');
    digest.update(readFileSync(file));
    digest.update('\0');
  }
  return digest.digest('hex');
}

/** True when dist/ is missing or was built from other sources than the ones here now. */
export function spaIsStale(): boolean {
  if (!existsSync(STAMP) || !existsSync(path.join(root, 'dist', 'index.html'))) return true;
  return readFileSync(STAMP, 'utf8').trim() !== spaInputsDigest();
}

/** Builds the SPA with Vite when it is missing or stale. */
export async function ensureSpaBuilt(log: (line: string) => void = (line) => process.stdout.write(`${line}\n`)) {
  if (!spaIsStale()) return;
  log('Building the web app (dist/ is missing or older than its sources)...');
  // The digest of the sources the build starts from: a file changed during the build makes the next check rebuild.
  const digest = spaInputsDigest();
  viteBuild(['--logLevel', 'warn']);
  writeFileSync(STAMP, `${digest}\n`);
}

/**
 * `vite build` with these arguments (bench:profile and bench:commits build variants of the app with it). A
 * child process: Vite sets NODE_ENV=production in its own process, which must not leak into the server.
 * NODE_ENV is forced: inherited from a test runner (NODE_ENV=test) it would produce React's development build.
 */
export function viteBuild(args: string[]): void {
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(process.execPath, [vite, 'build', ...args], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error(`vite build ${args.join(' ')} failed with exit code ${result.status}`);
}
