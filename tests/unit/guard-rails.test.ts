import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The rules `npm run lint` keeps (eslint.config.js), each shown to fire on the code it forbids: import
 * boundaries and the type-checked promise rules.
 *
 * Both kinds are linted with the repository's configuration, as files of the folders they stand for, but
 * neither builds the repository's TypeScript program: that took some 50 s of one worker in the full suite
 * (2026-11-27), to check two probes. An import boundary needs no types, so those probes are linted as
 * text with that rule alone and the type checker off. The promise probes are files in
 * tests/fixtures/lint-probes, whose own tsconfig.json (the repository's compiler options) is the project
 * the type checker finds for them; `npm run lint` ignores that folder.
 */
const root = path.resolve(import.meta.dirname, '../..');

const boundaries = new ESLint({
  cwd: root,
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
  ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports',
});

/** The import rules that fire on `text` as the file `file` (relative to the repository; nothing is written). */
async function importRulesFiredOn(file: string, text: string): Promise<string[]> {
  const [result] = await boundaries.lintText(text, { filePath: path.join(root, file) });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

const probes = new ESLint({ cwd: root, ignore: false });

/** Every rule of the configuration that fires on one of the promise probes. */
async function rulesFiredOnProbe(name: string): Promise<string[]> {
  const [result] = await probes.lintFiles([path.join(root, 'tests/fixtures/lint-probes', name)]);
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

describe('lint guard rails (issue 18)', { timeout: 60_000 }, () => {
  it('a signed-in page may not call the HTTP client or the old API modules', async () => {
    const fired = await importRulesFiredOn(
      'src/pages/account/__probe__/Page.tsx',
      "import { http } from '../../../../providers/http.js';\nimport { billingApi } from '../../../billing/api.js';\nexport const probe = [http, billingApi];\n",
    );
    expect(fired.filter((rule) => rule === 'no-restricted-imports')).toHaveLength(2);
  });

  it('a page may not import the server', async () => {
    const fired = await importRulesFiredOn('src/pages/auth/__probe_server__.tsx', "import { loadConfig } from '../../../server/config.js';\nexport const probe = loadConfig;\n");
    expect(fired).toContain('no-restricted-imports');
  });

  it('a provider may not import a page', async () => {
    const fired = await importRulesFiredOn('providers/__probe__.ts', "import { pageOf } from '../src/pages/index.js';\nexport const probe = pageOf;\n");
    expect(fired).toContain('no-restricted-imports');
  });

  it('a test may not import bench/', async () => {
    const fired = await importRulesFiredOn('tests/unit/__probe__.ts', "import { BUDGETS } from '../../bench/api.js';\nexport const probe = BUDGETS;\n");
    expect(fired).toContain('no-restricted-imports');
  });

  it('the same imports where they belong pass', async () => {
    expect(await importRulesFiredOn('server/__probe__.ts', "import { loadConfig } from './config.js';\nexport const probe = loadConfig;\n")).toEqual([]);
    expect(await importRulesFiredOn('bench/__probe__.ts', "import { BUDGETS } from './api.js';\nexport const probe = BUDGETS;\n")).toEqual([]);
  });

  it('a forgotten promise and a promise handed to an event handler are errors', async () => {
    const fired = await rulesFiredOnProbe('forgotten-promise.tsx');
    expect(fired).toEqual(expect.arrayContaining(['@typescript-eslint/no-floating-promises', '@typescript-eslint/no-misused-promises']));
  });

  it('the same code written properly passes', async () => {
    expect(await rulesFiredOnProbe('handled-promise.tsx')).toEqual([]);
  });
});
