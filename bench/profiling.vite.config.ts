import { defineConfig, mergeConfig, type ConfigEnv, type UserConfig } from 'vite';
import base from '../vite.config.js';

/**
 * The web app's build for `npm run bench:commits`: the same build with React's profiling renderer (render
 * durations on each fiber, and a hook for the updates it schedules) and without minifying, so components
 * keep their names. Never served outside that script.
 */
export default defineConfig((env: ConfigEnv) =>
  mergeConfig((base as (env: ConfigEnv) => UserConfig)(env), {
    resolve: { alias: [{ find: /^react-dom$/, replacement: 'react-dom/profiling' }] },
    build: { minify: false },
  }),
);
