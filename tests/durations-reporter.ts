import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Writes tests/durations.json: each test file's seconds in this run, which tests/sequencer.ts reads to
 * start the longest files first on a clean clone. `npm run test:durations` runs the whole suite with it.
 */
export default class DurationsReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const root = process.cwd();
    const seconds: Record<string, number> = {};
    for (const module of testModules) {
      const duration = module.diagnostic().duration;
      seconds[path.relative(root, module.moduleId)] = Math.max(1, Math.round(duration / 1000));
    }
    const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => a.localeCompare(b)));
    writeFileSync(path.join(root, 'tests', 'durations.json'), `${JSON.stringify(sorted, null, 2)}\n`);
  }
}
