// The page.evaluate callbacks in this file run in the browser.
/// <reference lib="dom" />
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../scripts/chromium.js';
import { ensureSpaBuilt } from '../scripts/spa-build.js';
import { startPortal } from '../scripts/portal-process.js';

/**
 * Is the admin users grid responsive at a million users? The real portal (built SPA, server/main.ts) on
 * the database bench/users.ts generated, the system Chromium as an admin: pages forward 30 times and
 * re-sorts by several columns, recording every main-thread long task (PerformanceObserver 'longtask')
 * and the time from click to the new rows. Prints the longest task and the medians; the budget is no
 * task over 200 ms while paging. Run `npm run bench:users` first (it creates the database file).
 *
 *   npm run bench:grid
 */
const USERS = Number(process.env.USERS ?? 1_000_000);
const root = path.resolve(import.meta.dirname, '..');
const file = path.join(root, 'data', `bench-users-${USERS}.db`);
if (!existsSync(file)) {
  process.stderr.write(`${file} is missing: run npm run bench:users first\n`);
  process.exit(1);
}

await ensureSpaBuilt();
const portal = await startPortal({ DATABASE_URL: `sqlite:${file}`, ADMIN_EMAIL: `grid-bench-${Date.now()}@localhost` });
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
try {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    const tasks: number[] = [];
    (window as unknown as { __longTasks: number[] }).__longTasks = tasks;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) tasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(`${portal.url}/en/admin/login`);
  await page.locator('#email').fill(portal.adminEmail);
  await page.locator('#password').fill(portal.adminPassword);
  await page.getByRole('button', { name: /^Sign in/ }).click();
  await page.waitForURL((url) => !url.pathname.endsWith('/admin/login'));
  await page.goto(`${portal.url}/en/admin/users`);
  await page.locator('[role="row"][data-id]').first().waitFor({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  // Only what happens while paging counts: forget the tasks of the first load.
  await page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks.splice(0));

  // One step: the click, the list request it causes, and the new rows on screen.
  const step = async (action: () => Promise<void>, isRequest: (query: URLSearchParams) => boolean, sortField: string | null = null) => {
    const before = await page.locator('[role="row"][data-id]').first().getAttribute('data-id');
    const started = Date.now();
    const answered = page.waitForResponse((response) => {
      const url = new URL(response.url());
      return url.pathname === '/api/users' && isRequest(url.searchParams) && response.ok();
    });
    await action();
    await answered;
    // Rendered: the first row changed (paging), or the header shows the new sort (sorting; the first
    // row may rightly stay, e.g. a NULL first name first under two sorts).
    await page.waitForFunction(
      ({ previous, field }) =>
        field
          ? document.querySelector(`[role="columnheader"][data-field="${field}"]`)?.getAttribute('aria-sort') === 'ascending'
          : document.querySelector('[role="row"][data-id]')?.getAttribute('data-id') !== previous,
      { previous: before, field: sortField },
      { timeout: 30_000 },
    );
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    return Date.now() - started;
  };
  const pageTimes: number[] = [];
  for (let index = 1; index <= 30; index++) {
    pageTimes.push(await step(() => page.getByRole('button', { name: 'Go to next page' }).click(), (query) => query.has('skip')));
  }
  const sortTimes: number[] = [];
  for (const field of ['email', 'firstName', 'lastName', 'createdAt', 'lastLaunchedAt']) {
    sortTimes.push(
      await step(
        () => page.locator(`[role="columnheader"][data-field="${field}"] .MuiDataGrid-columnHeaderTitle`).click(),
        (query) => query.get('sortField') === field,
        field,
      ),
    );
  }
  const tasks = await page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks);
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
  const result = {
    date: new Date().toISOString(),
    users: USERS,
    pages: pageTimes.length,
    sorts: sortTimes.length,
    clickToRowsMedianMs: { paging: median(pageTimes), sorting: median(sortTimes) },
    longTasks: tasks.length,
    longestTaskMs: Math.max(0, ...tasks),
    tasksOver200Ms: tasks.filter((duration) => duration > 200).length,
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  const out = path.join(root, 'bench/results/grid.json');
  const previous = existsSync(out) ? (JSON.parse(readFileSync(out, 'utf8')) as unknown[]) : [];
  writeFileSync(out, `${JSON.stringify([...(Array.isArray(previous) ? previous : []), result].slice(-5), null, 2)}\n`);
  if (result.tasksOver200Ms > 0) process.exitCode = 1;
} finally {
  await browser.close();
  await portal.stop();
}
