import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServer } from '../tests/fixtures/server.js';

/**
 * The OpenAPI half of `npm run lint` (issue 45): the document GET /api/openapi.json serves, made by the real
 * app over a throwaway SQLite database, linted by Redocly CLI with redocly.yaml (the recommended rules, and
 * the few turned off with their reasons). Any error or warning fails it: Redocly itself fails only on errors.
 * Redocly sends no usage data, checks for no update and shows no notice (run() below); its Node 20
 * deprecation banner has no setting (2.77 prints it to stderr on every start under Node 20), so Redocly's own
 * output is shown only when it could not lint, and then without that box.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const REDOCLY = path.join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');
/** The document as production serves it: APP_URL is required there (server/config.ts, whose example this is). */
const PUBLIC_URL = 'https://account.shapelab.com';
const METHODS = new Set(['get', 'put', 'post', 'patch', 'delete']);

interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  location: { pointer?: string }[];
}
interface Report {
  totals: { errors: number; warnings: number };
  problems: Problem[];
}

async function documentOfTheApp(): Promise<{ json: string; operations: number }> {
  const server = await startTestServer('sqlite', { appUrl: PUBLIC_URL });
  try {
    // What the route answers (server/plugins/openapi.ts), called directly so a failure keeps its message.
    const document = server.app.swagger() as { paths?: Record<string, object> };
    const operations = Object.values(document.paths ?? {}).reduce((count, item) => count + Object.keys(item).filter((key) => METHODS.has(key)).length, 0);
    return { json: JSON.stringify(document), operations };
  } finally {
    await server.close();
  }
}

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [REDOCLY, ...args], {
    cwd: ROOT,
    // No usage data; no update check (a request to the npm registry) nor notice: REDOCLY_SUPPRESS_NOTIFICATIONS
    // is 2.x's documented name (its README), REDOCLY_SUPPRESS_UPDATE_NOTICE the earlier one it still reads.
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), stdout, stderr }));
  });
}

/** Redocly's output without its boxed notices (the Node 20 deprecation banner). */
function withoutBoxes(output: string): string {
  return output.replace(/^\s*╔[\s\S]*?╚═*╝\s*$/gm, '').trim();
}

/** `#/paths/~1api~1users/get` as `paths › /api/users › get`. */
function where(problem: Problem): string {
  const pointer = problem.location[0]?.pointer ?? '#';
  return pointer
    .replace(/^#\/?/, '')
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join(' › ');
}

function parse(stdout: string): Report | null {
  try {
    return JSON.parse(stdout) as Report;
  } catch {
    return null;
  }
}

const { json, operations } = await documentOfTheApp();
const directory = mkdtempSync(path.join(os.tmpdir(), 'shapelab-openapi-'));
try {
  const file = path.join(directory, 'openapi.json');
  writeFileSync(file, json);
  const result = await run(['lint', file, '--config', path.join(ROOT, 'redocly.yaml'), '--lint-config', 'error', '--format', 'json', '--max-problems', '10000']);
  const report = parse(result.stdout);
  if (!report) {
    process.stderr.write(`OpenAPI lint: Redocly CLI could not lint the document (exit ${result.code}):\n${withoutBoxes(result.stderr + result.stdout)}\n`);
    process.exitCode = 1;
  } else if (report.totals.errors + report.totals.warnings > 0 || result.code !== 0) {
    const count = report.problems.length;
    const lines = report.problems.map((problem) => `  ${problem.severity.padEnd(5)}  ${problem.ruleId}  ${problem.message}\n         at ${where(problem)}`);
    process.stderr.write(`OpenAPI lint (redocly.yaml): ${count} ${count === 1 ? 'problem' : 'problems'} in the document of GET /api/openapi.json\n${lines.join('\n')}\n`);
    process.exitCode = 1;
  } else {
    process.stdout.write(`OpenAPI lint: ${operations} operations, no problems\n`);
  }
} finally {
  rmSync(directory, { recursive: true, force: true });
}
