import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Time in a rule comes from the injected clock. */
const NO_WALL_CLOCK = {
  selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
  message: 'Services read time from the injected clock (server/clock.ts).',
};

/** Building a statement: Kysely's query starters and the raw `sql` tag. */
const SQL_OUTSIDE_REPOSITORY = [
  {
    selector: "CallExpression[callee.property.name=/^(selectFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto|selectNoFrom)$/]",
    message: "A module's SQL lives in its repository (repo.ts, <thing>-repo.ts or queries.ts): call a function of it.",
  },
  {
    selector: "TaggedTemplateExpression[tag.name='sql']",
    message: "A module's SQL lives in its repository (repo.ts, <thing>-repo.ts or queries.ts): call a function of it.",
  },
];

/**
 * Issue 45: a screen's address comes from the route table (src/routing/paths.ts), never a path written by hand
 * where the app links or navigates: a literal `'/…'` (or a template starting with one) in `localize(...)`,
 * `navigate(...)`, a `to=` attribute or a `to:` / `redirectTo:` property.
 */
const LITERAL_PATH_MESSAGE = "Build the address with src/routing/paths.ts (paths.<screen>), the route table's paths, not a literal '/…'.";
const WHERE_PATHS_GO = ":matches(CallExpression[callee.name=/^(localize|navigate)$/], JSXAttribute[name.name='to'], Property[key.name=/^(to|redirectTo)$/])";
const LITERAL_PATHS = [
  `${WHERE_PATHS_GO} Literal[value=/^\\//]`,
  `${WHERE_PATHS_GO} TemplateLiteral > TemplateElement:first-child[value.raw=/^\\//]`,
].map((selector) => ({ selector, message: LITERAL_PATH_MESSAGE }));

export default tseslint.config(
  // tests/fixtures/lint-probes: code the promise rules must flag, linted only by tests/unit/guard-rails.test.ts.
  { ignores: ['dist/', 'node_modules/', 'data/', 'coverage/', 'bench/results/', 'tests/fixtures/lint-probes/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-syntax': ['error', NO_WALL_CLOCK],
    },
  },
  {
    // A module's SQL lives in its repository (repo.ts, <thing>-repo.ts) or queries file (queries.ts): a
    // service states the rule and calls them, so a newcomer finds every statement on a table in one place.
    files: ['server/modules/**/*.ts'],
    ignores: ['server/modules/*/repo.ts', 'server/modules/*/*-repo.ts', 'server/modules/*/queries.ts'],
    rules: { 'no-restricted-syntax': ['error', NO_WALL_CLOCK, ...SQL_OUTSIDE_REPOSITORY] },
  },
  {
    // The browser has no injected clock; token expiry there is checked against the device time.
    files: ['src/**', 'providers/**', 'tests/**', 'bench/**', 'scripts/**'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // The Google, Facebook and Paddle stand-ins play outside services, which keep wall-clock time like the real ones.
    files: ['server/modules/oauth/standins/**', 'server/sandbox/**'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // Promises are awaited or handed on on purpose: a forgotten one loses its failure, a promise where a
    // callback returns nothing (an onClick) hides it from React. These rules need the type checker.
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    // The server's shape (docs/architecture.md, "Rules and where each is enforced"). eslint-plugin-boundaries
    // names the elements (a module is a folder under server/modules/) and holds the rules between them;
    // import-x's no-cycle follows every import to its end. dependency-cruiser would do both but needs Node 22.
    // tests/fixtures/lint-probes/cycle: the cycle tests/unit/guard-rails.test.ts shows the rule finding.
    files: ['server/**/*.ts', 'contract/**/*.ts', 'tests/fixtures/lint-probes/cycle/*.ts'],
    plugins: { boundaries, 'import-x': importX },
    settings: {
      // Both plugins resolve `./file.js` to the TypeScript source beside it.
      'import/resolver': { typescript: true },
      'import-x/resolver-next': [createTypeScriptImportResolver()],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'boundaries/elements': [
        { type: 'module', pattern: 'server/modules/*', capture: ['name'] },
        { type: 'server', pattern: 'server' },
        { type: 'contract', pattern: 'contract' },
        { type: 'web', pattern: 'src' },
        { type: 'providers', pattern: 'providers' },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: [
            {
              // A module's face is its index.ts: what it exposes there is what others may use.
              from: { element: { type: ['module', 'server'] } },
              disallow: { to: { element: { type: 'module', fileInternalPath: '!index.ts' } } },
              message: "Import what another module exposes from its index.ts (server/modules/<name>/index.ts), never its files.",
            },
            {
              from: { element: { type: ['module', 'server', 'contract'] } },
              disallow: { to: { element: { type: ['web', 'providers'] } } },
              message: 'The server and the contract never import the web app (src/, providers/): what both need belongs in contract/.',
            },
            {
              from: { element: { type: 'contract' } },
              disallow: { to: { element: { type: ['module', 'server'] } } },
              message: 'The contract is shared by both sides and imports neither.',
            },
          ],
        },
      ],
      // Type-only imports vanish at run time; a cycle of values is an order-of-evaluation bug waiting.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // Import boundaries: the browser never bundles server code; the signed-in pages read and write through
    // Refine's data hooks and the one data provider, never the HTTP client.
    files: ['src/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/server/**'], message: 'Browser code never imports the server.' }] }],
    },
  },
  {
    files: ['src/pages/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/server/**'], message: 'Pages never import the server.' },
            { group: ['**/providers/http', '**/providers/http.js'], message: "Pages read and write through Refine's data hooks (providers/dataProvider.ts)." },
          ],
        },
      ],
    },
  },
  {
    files: ['src/pages/account/**', 'src/pages/checkout/**', 'src/pages/admin/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/server/**'], message: 'Pages never import the server.' },
            {
              group: ['**/providers/http', '**/providers/http.js', '**/providers/index', '**/providers/index.js', '**/billing/api', '**/billing/api.js', '**/licensing/api', '**/licensing/api.js'],
              message: "Signed-in pages read and write through Refine's data hooks (useOne, useList, useCustom, useCustomMutation...), not the HTTP client.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['providers/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/src/pages/**', '**/server/**'], message: 'Providers serve pages; they never import pages or the server.' }] },
      ],
    },
  },
  {
    files: ['tests/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/bench/**'], message: 'Tests never import bench/: shared code lives in scripts/ or tests/fixtures/.' }] },
      ],
    },
  },
  {
    // The web app's links and navigations name screens (LITERAL_PATHS above), the providers' redirects too.
    files: ['src/**/*.{ts,tsx}', 'providers/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...LITERAL_PATHS] },
  },
  {
    files: ['src/**', 'providers/**'],
    ignores: ['providers/http.ts'],
    rules: {
      'no-restricted-globals': ['error', { name: 'fetch', message: 'Use the one HTTP client in providers/http.ts.' }],
    },
  },
);
