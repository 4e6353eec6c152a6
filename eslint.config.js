import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'coverage/', 'bench/results/'] },
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
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: 'Services read time from the injected clock (server/clock.ts).',
        },
      ],
    },
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
    files: ['src/**', 'providers/**'],
    ignores: ['providers/http.ts'],
    rules: {
      'no-restricted-globals': ['error', { name: 'fetch', message: 'Use the one HTTP client in providers/http.ts.' }],
    },
  },
);
