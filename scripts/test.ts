import { spawn, type ChildProcess } from 'node:child_process';

/**
 * `npm test`: the type check and the lint run beside Vitest instead of before it. One after the other they
 * took 78 s before the first test started, a minute of it ESLint's type-checked rules on one core while the
 * other idled; beside Vitest they fill the moments its workers wait (2026-11-27, bench/README.md, "Time of
 * `npm test`"). Their output is shown only when one fails; then the tests are stopped and the run fails,
 * as `typecheck && lint && vitest` did, so a failed run never ends on a passing test count. Arguments go
 * to Vitest (`npm test -- tests/api/auth.test.ts`).
 */
interface Outcome {
  code: number;
  output: string;
}

function finished(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

/** An npm script with its output kept, not shown. */
async function quietly(script: string): Promise<Outcome> {
  const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { code: await finished(child), output };
}

const vitest = spawn('npx', ['vitest', 'run', ...process.argv.slice(2)], { stdio: 'inherit', detached: true });
const tests = finished(vitest);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stopTests(signal));

function stopTests(signal: NodeJS.Signals = 'SIGTERM'): void {
  // Vitest's workers, browsers and servers are in its process group.
  if (vitest.pid !== undefined && vitest.exitCode === null) {
    try {
      process.kill(-vitest.pid, signal);
    } catch {
      // Already gone.
    }
  }
}

const checks = await Promise.all(
  ['typecheck', 'lint'].map(async (script) => {
    const outcome = await quietly(script);
    if (outcome.code !== 0) stopTests();
    return { script, ...outcome };
  }),
);
const failedChecks = checks.filter((check) => check.code !== 0);
const testsCode = await tests;
for (const check of failedChecks) process.stdout.write(`\n${check.output}\n`);
if (failedChecks.length > 0) {
  process.stdout.write(`npm test failed: ${failedChecks.map((check) => check.script).join(' and ')} failed, so the tests were stopped\n`);
  process.exit(1);
}
process.exit(testsCode);
