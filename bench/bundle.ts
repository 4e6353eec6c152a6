import path from 'node:path';
import { describeWeight, measureRoutes } from '../scripts/bundle-weights.js';
import { ensureSpaBuilt } from '../scripts/spa-build.js';

/** `npm run bench:bundle`: JavaScript per route (gzip) against its budget (scripts/bundle-weights.ts, also the budget test's). */
await ensureSpaBuilt();
const weights = measureRoutes(path.resolve(import.meta.dirname, '../dist'));
process.stdout.write('JavaScript per route (gzip), budget, heaviest packages:\n');
for (const weight of weights) {
  process.stdout.write(`  ${describeWeight(weight)}${weight.bytes > weight.budget ? '  OVER BUDGET' : ''}\n`);
}
