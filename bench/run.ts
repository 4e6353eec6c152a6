import { spawnSync } from 'node:child_process';
import path from 'node:path';

/** `npm run bench`: every figure of the budgets, one benchmark after the other so none disturbs another. */
const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs');
for (const script of ['bench/bundle.ts', 'bench/api.ts', 'bench/instances.ts', 'bench/lighthouse.ts']) {
  process.stdout.write(`\n== ${script}\n`);
  const result = spawnSync(process.execPath, [tsx, script], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
