import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints the closing line CI reads: "N passed, N failed, N skipped". A test file that failed to load
 * counts as one failure, so a broken import can never pass as "0 failed".
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>) {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const module of testModules) {
      let tests = 0;
      for (const test of module.children.allTests()) {
        tests += 1;
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else skipped += 1;
      }
      if (tests === 0 && module.state() === 'failed') failed += 1;
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
