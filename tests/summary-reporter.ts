import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints the closing line CI reads: "N passed, N failed, N skipped". A test file that failed to load
 * counts as one failure, so a broken import can never pass as "0 failed". With TEST_SUMMARY_FILE set,
 * the same line is also written to that file, so .ci/run can add up the runs it makes (the README's
 * `npm test`, then the build and API suite on the other Node LTS lines) into one closing line. The names
 * of the failed tests follow the line (in the file too), so the tail of a long CI log says what failed.
 * A hook that failed (a `beforeAll` that could not start its servers) counts as one failure of its suite
 * or file: vitest marks the tests under it skipped, and they must not pass as "0 failed".
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>) {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    const failures: string[] = unhandledErrors.map((error) => `unhandled error: ${String(error).split('\n')[0]}`);
    for (const module of testModules) {
      const file = `${module.project.name} ${module.moduleId.replace(`${process.cwd()}/`, '')}`;
      const hookFailure = (errors: ReadonlyArray<{ message?: string }>, where: string) => {
        if (errors.length === 0) return;
        failed += 1;
        failures.push(`${where} (${errors[0]?.message?.split('\n')[0] ?? 'failed'})`);
      };
      hookFailure(module.errors(), file);
      for (const suite of module.children.allSuites()) hookFailure(suite.errors(), `${file} > ${suite.fullName}`);
      let tests = 0;
      for (const test of module.children.allTests()) {
        tests += 1;
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') {
          failed += 1;
          failures.push(`${file} > ${test.fullName}`);
        }
        else skipped += 1;
      }
      if (tests === 0 && module.state() === 'failed' && module.errors().length === 0) {
        failed += 1;
        failures.push(`${file} (did not load)`);
      }
    }
    const line = `${passed} passed, ${failed} failed, ${skipped} skipped`;
    const text = [line, ...failures.map((name) => `  failed: ${name}`)].join('\n');
    process.stdout.write(`\n${text}\n`);
    if (process.env.TEST_SUMMARY_FILE) writeFileSync(process.env.TEST_SUMMARY_FILE, `${text}\n`);
  }
}
