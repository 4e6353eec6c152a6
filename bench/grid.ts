import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../scripts/chromium.js';
import { ensureSpaBuilt } from '../scripts/spa-build.js';
import { startPortal } from './portal-process.js';

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
  await page.getByRole('row').nth(1).waitFor({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  // Only what happens while paging counts: forget the tasks of the first load.
  await page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks.splice(0));

  const firstCell = () => page.getByRole('row').nth(1).getByRole('gridcell').nth(2).textContent();
  const step = async (action: () => Promise<void>) => {
    const before = await firstCell();
    const started = Date.now();
    await action();
    await page.waitForFunction(
      (previous) => {
        const row = document.querySelectorAll('[role="row"]')[1];
        return row !== undefined && row.querySelectorAll('[role="gridcell"]')[2]?.textContent !== previous;
      },
      before,
      { timeout: 30_000 },
    );
    return Date.now() - started;
  };
  const pageTimes: number[] = [];
  for (let index = 0; index < 30; index++) pageTimes.push(await step(() => page.getByRole('button', { name: 'Go to next page' }).click()));
  const sortTimes: number[] = [];
  for (const column of ['Email', 'First name', 'Last name', 'Registered on']) {
    sortTimes.push(await step(() => page.getByRole('columnheader', { name: column }).click()));
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
