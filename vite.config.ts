import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { bundleReport } from './scripts/bundle-report-plugin.js';
import { markdownDocuments } from './scripts/markdown-plugin.js';

const apiPort = Number(process.env.API_PORT ?? 3001);

/**
 * Packages that @refinedev/mui imports at its top level for components we do not use (MarkdownField,
 * date fields, Autocomplete). They do not declare themselves free of side effects, so the bundler keeps
 * them even when nothing of theirs is used; they are (pure functions and components), and declaring it
 * lets unused imports drop out. A binding that is used is never removed by this.
 */
const SIDE_EFFECT_FREE = /node_modules\/(react-markdown|remark-[^/]+|micromark[^/]*|mdast-[^/]+|unist-[^/]+|unified|vfile[^/]*|hast-[^/]+|property-information|space-separated-tokens|comma-separated-tokens|style-to-object|inline-style-parser|markdown-table|trough|bail|extend|is-plain-obj|ccount|escape-string-regexp|decode-named-character-reference|character-entities[^/]*|zwitch|longest-streak|@popperjs\/core|error-stack-parser|stackframe)\//;

/** The parts the sign-in and registration forms share, and the sign-in form's own (see codeSplitting below). */
const FORM_PARTS = /src\/components\/(SocialButtons|social|ErrorAlert|PageCard|StepLabel|form\/(PasswordInput|TextInput|useFormFields))\.tsx?$/;
const SIGN_IN_FORM = /src\/pages\/auth\/(SignInForm|useSignIn)\.tsx?$/;

export default defineConfig({
  plugins: [markdownDocuments(), react(), bundleReport()],
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
});
