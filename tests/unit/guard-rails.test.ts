import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The rules `npm run lint` keeps (eslint.config.js), each shown to fire on the code it forbids: import
 * boundaries and the type-checked promise rules. The probes are written into the folders they stand
 * for, so the same configuration and TypeScript project apply as to real files there.
 */
const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });
const probes: string[] = [];

async function rulesFiredOn(file: string, text: string): Promise<string[]> {
  const full = path.join(root, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, text);
  probes.push(full);
  const [result] = await eslint.lintFiles([full]);
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

afterAll(() => {
  for (const probe of probes) rmSync(probe, { force: true });
  rmSync(path.join(root, 'src/pages/account/__probe__'), { recursive: true, force: true });
});

// The first lint of a folder builds its TypeScript program for the type-checked rules: about 10 s alone, 66 s
// once in the whole suite on 2 cores (a timeout at 60 s, 2026-11-25), hence the room.
describe('lint guard rails (issue 18)', { timeout: 180_000 }, () => {
  it('a signed-in page may not call the HTTP client or the old API modules', async () => {
    const fired = await rulesFiredOn(
      'src/pages/account/__probe__/Page.tsx',
      "import { http } from '../../../../providers/http.js';\nimport { billingApi } from '../../../billing/api.js';\nexport const probe = [http, billingApi];\n",
    );
    expect(fired.filter((rule) => rule === 'no-restricted-imports')).toHaveLength(2);
  });

  it('a page may not import the server', async () => {
    const fired = await rulesFiredOn('src/pages/auth/__probe_server__.tsx', "import { loadConfig } from '../../../server/config.js';\nexport const probe = loadConfig;\n");
    expect(fired).toContain('no-restricted-imports');
  });

  it('a provider may not import a page', async () => {
    const fired = await rulesFiredOn('providers/__probe__.ts', "import { pageOf } from '../src/pages/index.js';\nexport const probe = pageOf;\n");
    expect(fired).toContain('no-restricted-imports');
  });

  it('a test may not import bench/', async () => {
    const fired = await rulesFiredOn('tests/unit/__probe__.ts', "import { BUDGETS } from '../../bench/api.js';\nexport const probe = BUDGETS;\n");
    expect(fired).toContain('no-restricted-imports');
  });

  it('a forgotten promise and a promise handed to an event handler are errors', async () => {
    const fired = await rulesFiredOn(
      'src/components/__probe__.tsx',
      'async function save(): Promise<void> {}\nexport function Probe() {\n  save();\n  return <button onClick={save}>save</button>;\n}\n',
    );
    expect(fired).toEqual(expect.arrayContaining(['@typescript-eslint/no-floating-promises', '@typescript-eslint/no-misused-promises']));
  });

  it('the same code written properly passes', async () => {
    const fired = await rulesFiredOn(
      'src/components/__probe_ok__.tsx',
      'async function save(): Promise<void> {}\nexport function Probe() {\n  return <button onClick={() => void save()}>save</button>;\n}\n',
    );
    expect(fired).toEqual([]);
  });
});
