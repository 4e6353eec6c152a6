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
