import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { seedAnalyticsDemo } from '../../scripts/analytics-seed.js';
import { openDatabase } from '../../server/db/index.js';
import { createVerifiedUser, launchBrowser, newPage, seriousViolations, shown, signIn, url } from './browser.js';
import { runDesktop } from './desktop.js';

/**
 * Usage analytics in Chromium as an admin on the demo seed (issue "Usage analytics and cohorts"), in
 * English and German: the charts draw the seeded figures and the KPIs are above zero; a chart's table
 * and CSV file hold the same numbers; a filter ('contains suspicious data': only) changes the KPIs and
 * the address and survives a reload; an impossible filter is named and asks nothing of the API; the
 * cohort table shows percentages; and a session the desktop client reports shows in the sessions KPI
 * without a reload. The figures' charts, tables and heat map pass axe with data in them.
 */
const DEMO = { users: 300, days: 120 };

let browser: Browser;
let stateDir: string;
beforeAll(async () => {
  browser = await launchBrowser();
  stateDir = mkdtempSync(path.join(os.tmpdir(), 'e2e-analytics-'));
  const db = openDatabase({ dialect: 'sqlite', file: inject('databaseFile') });
  try {
    await seedAnalyticsDemo(db, { ...DEMO, now: new Date() });
  } finally {
    await db.destroy();
  }
}, 120_000);
afterAll(async () => {
  await browser?.close();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

/** The desktop client on this file's simulated computers. */
const desktop = (computer: string, args: string[]) => runDesktop(stateDir, computer, args);

const TEXTS = {
  en: {
    signIn: /sign in as administrator/i,
    analytics: 'Analytics',
    steam: 'Analytics: Steam',
    cohort: 'Cohort',
    suspicious: 'Contains suspicious data',
    minPlayed: 'Minimum played time (minutes)',
    maxPlayed: 'Maximum played time (minutes)',
    minAboveMax: 'The minimum must not be greater than the maximum.',
    table: 'Table',
    chart: 'Chart',
    downloadSessions: 'Download CSV: Sessions and average length',
    csvHeader: 'Period start,Sessions,Average length (minutes)',
    percent: /^\d{1,3}(\.\d)?%/,
  },
  de: {
    signIn: /als administrator anmelden/i,
    analytics: 'Analysen',
    steam: 'Analysen: Steam',
    cohort: 'Kohorten',
    suspicious: 'Enthält verdächtige Daten',
    minPlayed: 'Minimale Spielzeit (Minuten)',
    maxPlayed: 'Maximale Spielzeit (Minuten)',
    minAboveMax: 'Das Minimum darf nicht größer als das Maximum sein.',
    table: 'Tabelle',
    chart: 'Diagramm',
    downloadSessions: 'CSV herunterladen: Sitzungen und durchschnittliche Dauer',
    csvHeader: 'Beginn des Zeitraums,Sitzungen,Durchschnittliche Dauer (Minuten)',
    percent: /^\d{1,3}(,\d)?\s%/,
  },
} as const;

/** A count KPI as a number ("1,234" and "1.234" alike), once it shows one rather than its skeleton. */
async function kpi(page: Page, key: string): Promise<number> {
  const value = page.getByTestId(`kpi-${key}`).getByTestId('kpi-value');
  await expect.poll(() => value.textContent(), { timeout: 10_000 }).toMatch(/\d/);
  return Number((await value.textContent())?.replace(/\D/g, ''));
}

/** Waits until the KPI reads something other than `before`, and returns it. */
async function kpiChanged(page: Page, key: string, before: number): Promise<number> {
  await expect.poll(() => kpi(page, key), { timeout: 10_000 }).not.toBe(before);
  return kpi(page, key);
}

/** How many of a chart's bars have a height, or of its lines have a drawn path. */
function drawn(card: Locator): Promise<number> {
  return card.evaluate((element) => {
    const bars = [...element.querySelectorAll('svg .MuiBarElement-root')].filter((bar) => Number(bar.getAttribute('height')) > 0);
    const lines = [...element.querySelectorAll('svg .MuiLineChart-line')].filter((line) => (line.getAttribute('d') ?? '').length > 10);
    return bars.length + lines.length;
  });
}

/** The next `GET /api/analytics` whose query passes `check`, once `action` has run. */
async function figuresRequest(page: Page, action: () => Promise<unknown>, check: (query: URLSearchParams) => boolean) {
  const response = page.waitForResponse((candidate) => {
    const address = new URL(candidate.url());
    return address.pathname === '/api/analytics' && check(address.searchParams);
  });
  await action();
  expect((await response).status()).toBe(200);
}

async function signInAsAdmin(page: Page, language: 'en' | 'de') {
  await signIn(page, `/${language}/admin/login`, inject('adminEmail'), inject('adminPassword'), TEXTS[language].signIn);
  await page.waitForURL((address) => address.pathname === `/${language}/admin/users`);
}

for (const language of ['en', 'de'] as const) {
  const texts = TEXTS[language];

  describe(`usage analytics in Chromium (${language})`, () => {
    it('draws the seeded figures; the table and CSV hold the same numbers; a filter changes them and stays in the address', async () => {
      const { page, errors } = await newPage(browser);
      await signInAsAdmin(page, language);
      await page.goto(url(`/${language}/admin/analytics`));
      await shown(page.getByRole('heading', { level: 1, name: texts.analytics }));

      const sessions = await kpi(page, 'sessions');
      expect(sessions).toBeGreaterThan(0);
      expect(await kpi(page, 'newUsers')).toBeGreaterThan(0);
      expect(await kpi(page, 'exports')).toBeGreaterThan(0);
      for (const chart of ['new-users', 'active-users', 'sessions', 'played-time', 'exports']) {
        await expect.poll(() => drawn(page.getByTestId(`chart-${chart}`)), { message: chart }).toBeGreaterThan(0);
      }

      // The sessions chart as a table, and as a CSV file whose sessions add up to the KPI.
      const card = page.getByTestId('chart-sessions');
      await card.getByRole('button', { name: texts.table, exact: true }).click();
      await shown(card.getByRole('table'));
      expect(await card.getByRole('row').count()).toBeGreaterThan(2);
      const download = page.waitForEvent('download');
      await card.getByRole('button', { name: texts.downloadSessions }).click();
      const file = readFileSync((await (await download).path()) as string, 'utf8');
      const [header, ...rows] = file.trimEnd().split('\r\n');
      expect(header).toBe(texts.csvHeader);
      expect(rows.length).toBeGreaterThan(2);
      expect(rows.reduce((sum, row) => sum + Number(row.split(',')[1]), 0)).toBe(sessions);
      await expect(seriousViolations(page)).resolves.toEqual([]);
      await card.getByRole('button', { name: texts.chart, exact: true }).click();
      await expect.poll(() => drawn(card)).toBeGreaterThan(0);

      // Only the user-periods with a suspicious session: fewer sessions, and the address says so.
      await figuresRequest(
        page,
        () => page.getByLabel(texts.suspicious).selectOption('only'),
        (query) => query.get('suspicious') === 'only',
      );
      await page.waitForURL((address) => address.searchParams.get('suspicious') === 'only');
      const suspicious = await kpiChanged(page, 'sessions', sessions);
      expect(suspicious).toBeGreaterThan(0);
      expect(suspicious).toBeLessThan(sessions);

      await page.reload();
      await expect(page.getByLabel(texts.suspicious).inputValue()).resolves.toBe('only');
      await expect.poll(() => kpi(page, 'sessions')).toBe(suspicious);

      // An impossible played-time range is named under its field, and nothing is asked of the API: the
      // figures go (the query is off, not pending) and no request carries the impossible range. The
      // listener is attached before the fields change, so a request they caused would be seen.
      const asked: string[] = [];
      page.on('request', (request) => {
        const address = new URL(request.url());
        if (address.pathname === '/api/analytics') asked.push(address.search);
      });
      await page.getByLabel(texts.maxPlayed).fill('10');
      await page.getByLabel(texts.minPlayed).fill('50');
      await shown(page.getByText(texts.minAboveMax));
      await page.waitForURL((address) => address.searchParams.get('minPlayed') === '50' && address.searchParams.get('maxPlayed') === '10');
      await expect.poll(() => page.getByTestId('kpi-sessions').count()).toBe(0);
      expect(asked.filter((search) => new URLSearchParams(search).get('minPlayed') === '50')).toEqual([]);

      // A store's entry of the admin menu: the same dashboard for that channel.
      await page.goto(url(`/${language}/admin/analytics/steam`));
      await shown(page.getByRole('heading', { level: 1, name: texts.steam }));
      await shown(page.getByTestId('kpi-sessions').getByTestId('kpi-value'));
      expect(errors).toEqual([]);
      await page.context().close();
    }, 120_000);

    it('shows retention percentages per sign-up cohort', async () => {
      const { page, errors } = await newPage(browser);
      await signInAsAdmin(page, language);
      await page.goto(url(`/${language}/admin/cohort`));
      await shown(page.getByRole('heading', { level: 1, name: texts.cohort }));
      const cells = page.getByTestId('cohort-table').getByTestId('retention');
      await shown(cells);
      const percents = (await cells.allTextContents()).filter((text) => texts.percent.test(text));
      expect(percents.length).toBeGreaterThan(0);
      // The shaded cells keep their text readable.
      await expect(seriousViolations(page)).resolves.toEqual([]);
      await page.goto(url(`/${language}/admin/cohort?granularity=month`));
      await shown(page.getByTestId('cohort-table').getByTestId('retention'));
      expect(errors).toEqual([]);
      await page.context().close();
    }, 60_000);

    it('a session reported by the desktop client shows in the sessions KPI without a reload', async () => {
      const { page, errors } = await newPage(browser);
      await signInAsAdmin(page, language);
      await page.goto(url(`/${language}/admin/analytics`));
      const before = await kpi(page, 'sessions');
      // Survives only as long as the page is not loaded again.
      await page.evaluate(() => Object.assign(window, { e2eNoReload: true }));

      // The refetch the report triggers (a second after it), listened for before anything is reported.
      const refetched = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/analytics', { timeout: 30_000 });
      const user = await createVerifiedUser(language);
      const computer = `live-${language}`;
      expect((await desktop(computer, ['login', '--email', user.email, '--password', user.password])).code).toBe(0);
      const activated = await desktop(computer, ['activate', '--computer-id', `WS-LIVE-${language.toUpperCase()}`, '--name', 'Live PC']);
      expect(activated.code, activated.stderr).toBe(0);
      const reported = await desktop(computer, ['session', '--length', '900']);
      expect(reported.code, reported.stderr).toBe(0);

      await expect.poll(() => kpi(page, 'sessions'), { timeout: 10_000 }).toBe(before + 1);
      // Still the same page, and the refetch that follows agrees with the live count (the report is counted
      // once, not live and again in the fetched figures): wait for that refetch, then for the page to draw it.
      await expect(page.evaluate(() => 'e2eNoReload' in window)).resolves.toBe(true);
      await refetched;
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      expect(await kpi(page, 'sessions')).toBe(before + 1);
      expect(errors).toEqual([]);
      await page.context().close();
    }, 90_000);
  });
}
