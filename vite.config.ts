import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import { bundleReport } from './scripts/bundle-report-plugin.js';
import { markdownDocuments } from './scripts/markdown-plugin.js';
import { FORM_GROUPS, inEntryGraph, routeChunkName, routeChunks } from './scripts/route-chunks.js';
import { routePreloads } from './scripts/route-preload-plugin.js';

const apiPort = Number(process.env.API_PORT ?? 3001);

/**
 * Packages that @refinedev/mui imports at its top level for components we do not use (MarkdownField,
 * date fields, Autocomplete), and papaparse, which @refinedev/core imports for the CSV import and export
 * hooks we do not use (6.4 KB gzip off every signed-in screen). They do not declare themselves free of side
 * effects, so the bundler keeps them even when nothing of theirs is used; they are (pure functions and
 * components), and declaring it lets unused imports drop out. A binding that is used is never removed by this.
 */
const SIDE_EFFECT_FREE = /node_modules\/(react-markdown|remark-[^/]+|micromark[^/]*|mdast-[^/]+|unist-[^/]+|unified|vfile[^/]*|hast-[^/]+|property-information|space-separated-tokens|comma-separated-tokens|style-to-object|inline-style-parser|markdown-table|trough|bail|extend|is-plain-obj|ccount|escape-string-regexp|decode-named-character-reference|character-entities[^/]*|zwitch|longest-streak|@popperjs\/core|error-stack-parser|stackframe|papaparse|dayjs)\//;

/**
 * Calls the bundler may drop where their result is unused. Refine's MUI package builds themes as it loads
 * (LightTheme, DarkTheme; RefineThemes below) and runs dayjs for a date field, none of it used here; and
 * Refine's packages name each of their functions with a call (`__name`), which kept functions nothing uses.
 */
const PURE_FUNCTIONS = ['createTheme', 'dayjs', '__name'];

/**
 * Refine's MUI package builds its fourteen RefineThemes in a `reduce` as it loads: fourteen `createTheme`
 * calls, each a deep merge of MUI's defaults (8 ms in Node on this machine, some 30 ms at a phone's 4x), on
 * every signed-in screen's first load. Marked pure, the unused result goes (tests/unit/bundle-budget.test.ts
 * checks that no screen carries it).
 */
function refineThemesUnbuilt(): Plugin {
  const built = 'var RefineThemes = Object.keys(';
  return {
    name: 'shapelab-refine-themes-unbuilt',
    apply: 'build',
    transform(code, id) {
      if (!id.includes('/@refinedev/mui/dist/index.mjs')) return null;
      if (!code.includes(built)) {
        this.warn('RefineThemes is no longer built as vite.config.ts expects: see the bundle budget test');
        return null;
      }
      return { code: code.replace(built, 'var RefineThemes = /* @__PURE__ */ Object.keys('), map: null };
    },
  };
}

/**
 * React Router 7's package exports point at its development build (checks and warnings on every match,
 * about 30 ms more main-thread work on a phone at sign-in); its own Vite plugin swaps in the production build,
 * which we do not use, so the production build is named here for `vite build`. `npm run dev` keeps the
 * development build and its warnings.
 */
const REACT_ROUTER_PRODUCTION = fileURLToPath(new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url));

/** Emotion's insertion hook, replaced in the build so styles insert during render, not in the commit (see the file). */
const EMOTION_INSERTION = fileURLToPath(new URL('./src/boot/emotion-insertion.ts', import.meta.url));
/** qs without its dependencies, for Refine's packages (see the file). */
const QS = fileURLToPath(new URL('./src/boot/qs.ts', import.meta.url));

/**
 * The modules after whose evaluation the signed-in frame's chunk yields to the browser: its evaluation was
 * one task of 22 to 27 ms of CPU on this machine (Lighthouse's trace, `LIGHTHOUSE_TASKS=1`), four times that
 * on Lighthouse's phone, and all of it blocking time. A top-level `await` of a zero timeout (the one
 * src/boot/yieldToBrowser.ts gives the entry, written out so a package's file gains no import) ends the task
 * after the module; the modules that import it wait for it, as ES modules do. Refine's core and its MUI
 * package, and src/boot/qs.ts (qs in the build), which is evaluated between TanStack Query and Refine's core.
 * A package whose entry only re-exports (TanStack Query's, qs-esm's) is dropped by the bundler, and its await
 * with it.
 */
const YIELD_AFTER = new Set([
  fileURLToPath(new URL('./node_modules/@refinedev/core/dist/index.mjs', import.meta.url)),
  fileURLToPath(new URL('./node_modules/@refinedev/mui/dist/index.mjs', import.meta.url)),
  QS,
]);

function yieldAfterModules(): Plugin {
  return {
    name: 'shapelab-yield-after-modules',
    apply: 'build',
    transform(code, id) {
      if (!YIELD_AFTER.has(id)) return null;
      return { code: `${code}\nawait new Promise((resolve) => setTimeout(resolve, 0));\n`, map: null };
    },
  };
}

export default defineConfig(({ command }) => {
  return {
  plugins: [markdownDocuments(), react(), refineThemesUnbuilt(), yieldAfterModules(), bundleReport(), routePreloads(), routeChunks()],
  resolve: command === 'build' ? { alias: [{ find: /^react-router$/, replacement: REACT_ROUTER_PRODUCTION }, { find: /^@emotion\/use-insertion-effect-with-fallbacks$/, replacement: EMOTION_INSERTION }, { find: /^qs$/, replacement: QS }] } : {},
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    sourcemap: false,
    target: 'es2022',
    // Budgets are enforced per route by tests/unit/bundle-budget.test.ts, not by this generic warning.
    chunkSizeWarningLimit: 1024,
    rolldownOptions: {
      treeshake: { moduleSideEffects: (id: string) => !SIDE_EFFECT_FREE.test(id), manualPureFunctions: PURE_FUNCTIONS },
      output: {
        // The forms' parts load together wherever they appear (sign-in, registration, the visitor checkout):
        // two chunks instead of ten small ones, each of which costs its own wrapper and imports (the sign-in
        // pages' 160 KB budget, tests/unit/bundle-budget.test.ts).
        codeSplitting: {
          groups: [
            { name: (id: string, ctx: Rolldown.ChunkingContext) => (inEntryGraph(id, ctx) ? 'app' : null), debugName: 'app' },
            ...FORM_GROUPS.map((group) => ({ ...group, includeDependenciesRecursively: false })),
            // Each group takes only its own modules: a module's imports are loaded by at least the same routes.
            { name: routeChunkName, debugName: 'routes', includeDependenciesRecursively: false },
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
