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

const serverRules = new ESLint({
  cwd: root,
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
  ruleFilter: ({ ruleId }) => ruleId === 'boundaries/dependencies' || ruleId === 'no-restricted-syntax',
});

/** The server's shape rules (module faces, the web app kept out, SQL in repositories) that fire on `text` as `file`. */
async function serverRulesFiredOn(file: string, text: string): Promise<string[]> {
  const [result] = await serverRules.lintText(text, { filePath: path.join(root, file) });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

const webRules = new ESLint({
  cwd: root,
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
  ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-syntax',
});

/** The lines of `text`, as the web app's file `file`, on which the web app's syntax rules fire. */
async function webRuleLines(file: string, text: string): Promise<number[]> {
  const [result] = await webRules.lintText(text, { filePath: path.join(root, file) });
  return (result?.messages ?? []).map((message) => message.line);
}

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

  it("a module may not reach into another module's files, only its index.ts (issue 45)", async () => {
    const deep = "import { UsersRepo } from '../users/repo.js';\nexport const probe = UsersRepo;\n";
    expect(await serverRulesFiredOn('server/modules/billing/__probe__.ts', deep)).toEqual(['boundaries/dependencies']);
    // server/app.ts and the plugins too: every file outside the module.
    expect(await serverRulesFiredOn('server/__probe__.ts', "import { UsersRepo } from './modules/users/repo.js';\nexport const probe = UsersRepo;\n")).toEqual(['boundaries/dependencies']);
    expect(await serverRulesFiredOn('server/modules/billing/__probe__.ts', "import { UsersRepo } from '../users/index.js';\nexport const probe = UsersRepo;\n")).toEqual([]);
    // A module's own files are its own business.
    expect(await serverRulesFiredOn('server/modules/users/__probe__.ts', "import { UsersRepo } from './repo.js';\nexport const probe = UsersRepo;\n")).toEqual([]);
  });

  it('the server and the contract may not import the web app, and the contract not the server (issue 45)', async () => {
    const web = "import { ROUTES } from '../src/routing/routes.js';\nexport const probe = ROUTES;\n";
    expect(await serverRulesFiredOn('contract/__probe__.ts', web)).toEqual(['boundaries/dependencies']);
    expect(await serverRulesFiredOn('server/__probe__.ts', web)).toEqual(['boundaries/dependencies']);
    expect(await serverRulesFiredOn('server/modules/users/__probe__.ts', "import { http } from '../../../providers/http.js';\nexport const probe = http;\n")).toEqual(['boundaries/dependencies']);
    expect(await serverRulesFiredOn('contract/__probe__.ts', "import { loadConfig } from '../server/config.js';\nexport const probe = loadConfig;\n")).toEqual(['boundaries/dependencies']);
  });

  it("a module's SQL lives in its repository, not in a service (issue 45)", async () => {
    const statement = "import type { Kysely } from 'kysely';\nexport const probe = (db: Kysely<{ users: { id: string } }>) => db.selectFrom('users').selectAll().execute();\n";
    const raw = "import { sql } from 'kysely';\nexport const probe = sql`select 1`;\n";
    expect(await serverRulesFiredOn('server/modules/users/__probe__.ts', statement)).toEqual(['no-restricted-syntax']);
    expect(await serverRulesFiredOn('server/modules/users/__probe__.ts', raw)).toEqual(['no-restricted-syntax']);
    expect(await serverRulesFiredOn('server/modules/users/repo.ts', statement)).toEqual([]);
    expect(await serverRulesFiredOn('server/modules/users/probe-repo.ts', raw)).toEqual([]);
  });

  it('an import cycle is an error (issue 45)', async () => {
    // The cycle must exist on disk for the rule to follow it: tests/fixtures/lint-probes/cycle.
    const cycles = new ESLint({
      cwd: root,
      ignore: false,
      overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
      ruleFilter: ({ ruleId }) => ruleId === 'import-x/no-cycle',
    });
    const [result] = await cycles.lintFiles([path.join(root, 'tests/fixtures/lint-probes/cycle/first.ts')]);
    expect((result?.messages ?? []).map((message) => message.ruleId)).toEqual(['import-x/no-cycle']);
  });

  it("a link or navigation names its screen from the route table, never a literal path (issue 45)", async () => {
    const literal = [
      "import { Link, Navigate, useNavigate } from 'react-router';",
      'declare const localize: (path: string) => string;',
      'declare const id: string;',
      'export function Probe({ admin }: { admin: boolean }) {',
      '  const navigate = useNavigate();',
      "  void navigate('/login');",
      '  void navigate(localize(`/admin/users/${id}`));',
      "  const card = { to: '/account/licences', redirectTo: localize(admin ? '/admin/login' : '/login') };",
      '  return (',
      '    <>',
      '      <Link to="/account/profile">{card.to}</Link>',
      "      <Link to={localize('/account/security')}>{card.redirectTo}</Link>",
      '      <Navigate to={`/checkout-new/${id}`} />',
      '    </>',
      '  );',
      '}',
    ].join('\n');
    // One report per literal: each of the lines that write one, the conditional's two on line 8.
    expect(await webRuleLines('src/pages/account/__probe__.tsx', literal)).toEqual([6, 7, 8, 8, 8, 11, 12, 13]);
    const named = [
      "import { Link, Navigate, useNavigate } from 'react-router';",
      "import { paths } from '../../../routing/paths.js';",
      'declare const localize: (path: string) => string;',
      'declare const id: string;',
      'export function Probe({ admin }: { admin: boolean }) {',
      '  const navigate = useNavigate();',
      '  void navigate(paths.login);',
      '  void navigate(localize(paths.userShow(id)));',
      '  const card = { to: paths.licences, redirectTo: localize(admin ? paths.adminLogin : paths.login) };',
      '  return (',
      '    <>',
      '      <Link to={localize(`${paths.terms}#eula`)}>{card.to}</Link>',
      "      <Navigate to={localize(paths.checkoutNew('perpetual', id))} />",
      '    </>',
      '  );',
      '}',
    ].join('\n');
    expect(await webRuleLines('src/pages/account/__probe__.tsx', named)).toEqual([]);
  });

  it('a forgotten promise and a promise handed to an event handler are errors', async () => {
    const fired = await rulesFiredOnProbe('forgotten-promise.tsx');
    expect(fired).toEqual(expect.arrayContaining(['@typescript-eslint/no-floating-promises', '@typescript-eslint/no-misused-promises']));
  });

  it('the same code written properly passes', async () => {
    expect(await rulesFiredOnProbe('handled-promise.tsx')).toEqual([]);
  });
});
