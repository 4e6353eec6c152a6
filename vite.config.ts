import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { bundleReport } from './scripts/bundle-report-plugin.js';
import { markdownDocuments } from './scripts/markdown-plugin.js';
import { routePreloads } from './scripts/route-preload-plugin.js';

const apiPort = Number(process.env.API_PORT ?? 3001);

type ChunkingContext = { getModuleInfo(id: string): { isEntry: boolean; importers: string[]; dynamicImporters: string[]; importedIds: string[] } | null };
let entryGraph: Set<string> | null = null;

/**
 * The modules every page runs before its first render: the entry's static imports, all the way down. Left to
 * itself the bundler cuts them into some twenty chunks (one per set of lazy chunks that shares them); every
 * page downloads all of them anyway, so they are one chunk: one request instead of twenty on HTTP/1.1's six
 * connections, and one gzip dictionary instead of twenty (Lighthouse's request chain; the 160 KB budget).
 */
function inEntryGraph(id: string, ctx: ChunkingContext): boolean {
  if (!entryGraph) {
    const seen = new Set<string>();
    const up = [id];
    let entry: string | null = null;
    while (up.length > 0 && entry === null) {
      const current = up.pop() as string;
      if (seen.has(current)) continue;
      seen.add(current);
      const info = ctx.getModuleInfo(current);
      if (info?.isEntry) entry = current;
      else if (info) up.push(...info.importers, ...info.dynamicImporters);
    }
    if (entry === null) return false;
    entryGraph = new Set();
    const down = [entry];
    while (down.length > 0) {
      const current = down.pop() as string;
      if (entryGraph.has(current)) continue;
      entryGraph.add(current);
      down.push(...(ctx.getModuleInfo(current)?.importedIds ?? []));
    }
  }
  // The entry script itself stays the entry chunk (index.html names it, and the manifest keys it).
  return entryGraph.has(id) && !ctx.getModuleInfo(id)?.isEntry && !id.endsWith('/src/main.tsx');
}

/**
 * Packages that @refinedev/mui imports at its top level for components we do not use (MarkdownField,
 * date fields, Autocomplete), and papaparse, which @refinedev/core imports for the CSV import and export
 * hooks we do not use (6.4 KB gzip off every signed-in screen). They do not declare themselves free of side
 * effects, so the bundler keeps them even when nothing of theirs is used; they are (pure functions and
 * components), and declaring it lets unused imports drop out. A binding that is used is never removed by this.
 */
const SIDE_EFFECT_FREE = /node_modules\/(react-markdown|remark-[^/]+|micromark[^/]*|mdast-[^/]+|unist-[^/]+|unified|vfile[^/]*|hast-[^/]+|property-information|space-separated-tokens|comma-separated-tokens|style-to-object|inline-style-parser|markdown-table|trough|bail|extend|is-plain-obj|ccount|escape-string-regexp|decode-named-character-reference|character-entities[^/]*|zwitch|longest-streak|@popperjs\/core|error-stack-parser|stackframe|papaparse)\//;

/** The parts the sign-in and registration forms share, and the sign-in form's own (see codeSplitting below). */
const FORM_PARTS = /src\/components\/(SocialButtons|social|ErrorAlert|PageCard|StepLabel|form\/(PasswordInput|TextInput|useFormFields))\.tsx?$/;
const SIGN_IN_FORM = /src\/pages\/auth\/(SignInForm|useSignIn)\.tsx?$/;

/**
 * React Router 7's package exports point at its development build (checks and warnings on every match,
 * about 30 ms more main-thread work on a phone at sign-in); its own Vite plugin swaps in the production build,
 * which we do not use, so the production build is named here for `vite build`. `npm run dev` keeps the
 * development build and its warnings.
 */
const REACT_ROUTER_PRODUCTION = fileURLToPath(new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url));

/** Emotion's insertion hook, replaced in the build so styles insert during render, not in the commit (see the file). */
const EMOTION_INSERTION = fileURLToPath(new URL('./src/boot/emotion-insertion.ts', import.meta.url));

export default defineConfig(({ command }) => {
  entryGraph = null;
  return {
  plugins: [markdownDocuments(), react(), bundleReport(), routePreloads()],
  resolve: command === 'build' ? { alias: [{ find: /^react-router$/, replacement: REACT_ROUTER_PRODUCTION }, { find: /^@emotion\/use-insertion-effect-with-fallbacks$/, replacement: EMOTION_INSERTION }] } : {},
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    sourcemap: false,
    target: 'es2022',
    // Budgets are enforced per route by tests/unit/bundle-budget.test.ts, not by this generic warning.
    chunkSizeWarningLimit: 1024,
    rolldownOptions: {
      treeshake: { moduleSideEffects: (id: string) => !SIDE_EFFECT_FREE.test(id) },
      output: {
        // The forms' parts load together wherever they appear (sign-in, registration, the visitor checkout):
        // two chunks instead of ten small ones, each of which costs its own wrapper and imports (the sign-in
        // pages' 160 KB budget, tests/unit/bundle-budget.test.ts).
        codeSplitting: {
          groups: [
            { name: (id: string, ctx: ChunkingContext) => (inEntryGraph(id, ctx) ? 'app' : null), debugName: 'app' },
            { name: 'form-parts', test: FORM_PARTS, includeDependenciesRecursively: false },
            { name: 'sign-in-form', test: SIGN_IN_FORM, includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
  server: {
    port: Number(process.env.PORT ?? 5173),
    proxy: { '/api': `http://127.0.0.1:${apiPort}` },
  },
};
});
