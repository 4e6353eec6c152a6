import { parse, stringify } from 'qs-esm';

/**
 * `qs` for the production build (vite.config.ts aliases it here): Refine's core and its React Router binding
 * import qs for the address's query string. qs 6 brings side-channel, object-inspect, get-intrinsic and their
 * helpers for cycle checks in stringify (12 KB gzip on every signed-in screen, 2026-11-27); qs-esm is
 * Payload's fork of the same code and options without them. Refine uses `qs.parse` and `qs.stringify`.
 * The build also ends a task of the frame chunk's evaluation after this module (vite.config.ts, YIELD_AFTER).
 */
export default { parse, stringify };
