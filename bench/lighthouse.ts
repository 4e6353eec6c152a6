// The page.evaluate callbacks in this file run in the browser.
/// <reference lib="dom" />
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import lighthouse from 'lighthouse';
import puppeteer, { type Browser } from 'puppeteer-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../scripts/chromium.js';
import { ensureSpaBuilt } from '../scripts/spa-build.js';
import { startPortal } from '../scripts/portal-process.js';

/**
 * Lighthouse (mobile preset: simulated slow 4G and 4x CPU slowdown) on the production build served by the
 * real server, in the system Chromium: the account home, login, registration, profile (signed in) and admin users.
 * Full reports go to bench/results/lighthouse-<page>.html, the scores to bench/results/lighthouse.json.
 * Goals: performance >= 95, accessibility 100, best practices >= 95.
 */
const PAGES = [
  { name: 'home', path: '/', session: true },
  { name: 'login', path: '/login', session: false },
  { name: 'registration', path: '/registration', session: false },
  { name: 'profile', path: '/account/profile', session: true },
  { name: 'admin-users', path: '/admin/users', session: true },
] as const;

const resultsDir = path.resolve(import.meta.dirname, 'results');

async function signInToken(baseUrl: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/admin-login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

async function audit(browser: Browser, baseUrl: string, page: (typeof PAGES)[number], token: string) {
  const tab = await browser.newPage();
  // A session is placed in storage first; Lighthouse is told not to wipe it.
  await tab.goto(`${baseUrl}/terms`);
  await tab.evaluate((value) => (value ? localStorage.setItem('token', value) : localStorage.clear()), page.session ? token : '');
  const result = await lighthouse(
    `${baseUrl}${page.path}`,
    { output: 'html', disableStorageReset: true, onlyCategories: ['performance', 'accessibility', 'best-practices'], logLevel: 'error' },
    undefined,
    tab,
  );
  await tab.close();
  if (!result) throw new Error(`Lighthouse returned nothing for ${page.path}`);
  writeFileSync(path.join(resultsDir, `lighthouse-${page.name}.html`), String(result.report));
  const { categories, audits } = result.lhr;
  const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
  return {
    page: page.path,
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    fcp: audits['first-contentful-paint']?.displayValue,
    lcp: audits['largest-contentful-paint']?.displayValue,
    tbt: audits['total-blocking-time']?.displayValue,
    cls: audits['cumulative-layout-shift']?.displayValue,
  };
}

export async function runLighthouse() {
  await ensureSpaBuilt();
  mkdirSync(resultsDir, { recursive: true });
  const portal = await startPortal();
  const browser = await puppeteer.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS, headless: true });
  try {
    const token = await signInToken(portal.url, portal.adminEmail, portal.adminPassword);
    const rows = [];
    // LIGHTHOUSE_PAGES=profile,login audits only those pages (while working on one).
    const only = process.env.LIGHTHOUSE_PAGES?.split(',');
    for (const page of PAGES) if (!only || only.includes(page.name)) rows.push(await audit(browser, portal.url, page, token));
    // A run of some pages only (LIGHTHOUSE_PAGES) leaves the recorded full run alone.
    if (!only) writeFileSync(path.join(resultsDir, 'lighthouse.json'), `${JSON.stringify({ date: new Date().toISOString(), rows }, null, 2)}\n`);
    process.stdout.write('Lighthouse (mobile): performance / accessibility / best practices, FCP, LCP, TBT, CLS\n');
    for (const row of rows) {
      const goals = row.performance >= 95 && row.accessibility === 100 && row.bestPractices >= 95 ? 'meets goals' : 'BELOW GOAL';
      process.stdout.write(
        `  ${row.page.padEnd(18)} ${row.performance} / ${row.accessibility} / ${row.bestPractices}   FCP ${row.fcp}, LCP ${row.lcp}, TBT ${row.tbt}, CLS ${row.cls}   ${goals}\n`,
      );
    }
    return rows;
  } finally {
    await browser.close();
    await portal.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runLighthouse();
