import { existsSync } from 'node:fs';

/**
 * The system Chromium (Debian package `chromium`) and the flags it needs on these machines: headless,
 * no sandbox as root, and no background network calls (the network is closed). Browsers are never downloaded.
 * The benchmarks (Lighthouse, traces) measure this full browser, as a visitor's phone would run it.
 */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * The browser tests' Chromium: the same release's headless shell (Debian package `chromium-headless-shell`,
 * the same Blink and V8 without the desktop browser around them) when it is installed, else the full one;
 * `TEST_CHROMIUM` names another. The suite is bound by CPU on two cores and the browser took most of it:
 * one browser file (tests/e2e/profile.test.ts) took 88 CPU seconds and 49 s with the full browser, 53 CPU
 * seconds and 33 s with the shell (three runs each, alternated, 2026-11-26).
 */
export const TEST_CHROMIUM_PATH = process.env.TEST_CHROMIUM ?? (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : CHROMIUM_PATH);

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The browser tests' flags: the ones above, and V8 tiering up to its optimizing compilers (Maglev, then
 * Turbofan) after 50 and about 67 times as many calls as by default (400 and 3,000). A test's page lives
 * for seconds and its functions start from scratch on every load, so most of what the optimizers compiled
 * on the renderer's thread pool never paid for itself; code that runs hot for long (axe-core's audit, a
 * grid's rows) is still optimized. The app runs as before; only its code is compiled later.
 * CPU of the whole machine (`/proc/stat`) for one file alone, runs alternated with the default
 * (2026-11-27), in CPU s:
 *
 * | file | default | 5,000 / 50,000 calls | these (20,000 / 200,000) | no Maglev, no Turbofan |
 * |---|---|---|---|---|
 * | tests/e2e/profile.test.ts | 38, 42, 45, 35 | 34, 36, 32, 32 | | 31, 29 |
 * | tests/e2e/accessibility.test.ts | 60, 63 | 51, 54, 58, 50 | 50, 51 | 61, 56 |
 * | tests/e2e/admin-users.test.ts | 79, 84 | 64, 68, 75, 63 | 70, 59 | 64, 61 |
 *
 * The benchmarks keep V8's defaults (CHROMIUM_FLAGS): they measure the browser as a visitor runs it.
 */
export const TEST_CHROMIUM_FLAGS = [...CHROMIUM_FLAGS, '--js-flags=--invocation-count-for-maglev=20000 --invocation-count-for-turbofan=200000'];
