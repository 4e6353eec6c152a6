import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { seedAnalyticsDemo } from '../../scripts/analytics-seed.js';
import type { AnalyticsResponse, FirstDayResponse } from '../../contract/analytics.js';
import { presetRange } from '../../src/pages/admin/analytics/filters.js';
import { openDatabase } from '../../server/db/index.js';
import { createVerifiedUser, launchBrowser, newContext, newPage, openInApp, seriousViolations, shown, signIn } from './browser.js';
import { runDesktop } from './desktop.js';

/**
 * Usage analytics in Chromium as an admin on the demo seed (issue "Usage analytics and cohorts"), in
 * English and German: the charts draw the seeded figures and the KPIs are above zero; a chart's table
 * and CSV file hold the same numbers; a filter ('contains suspicious data': only) changes the KPIs and
 * the address and survives a reload; an impossible filter is named and asks nothing of the API; the
 * cohort table shows percentages; and a session the desktop client reports shows in the sessions KPI
 * without a reload. The figures' charts, tables and heat map pass axe with data in them. Issue 21 item 3:
 * the range opens on the first data and the presets set it (and the address); a wrong filter is marked
 * on its field while the KPIs and charts stay as they were; the current week is hatched with its legend;
 * each KPI shows its change against the previous weeks; the cohort table fits a 390 px phone.
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
    fromAfterTo: 'The end must not be before the start.',
    from: 'From',
    to: 'To',
    presets: { last30Days: '30 days', last12Months: '12 months', all: 'All' },
    incomplete: /^Incomplete: the week starting .+ is not over yet; it is left out of the comparisons\.$/,
    versus: /vs previous \d+ weeks?\b/,
    noPrevious: /^— .*vs previous \d+ weeks?/,
    cohortLegend: 'Share of the cohort still active:',
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
    fromAfterTo: 'Das Ende darf nicht vor dem Beginn liegen.',
    from: 'Von',
    to: 'Bis',
    presets: { last30Days: '30 Tage', last12Months: '12 Monate', all: 'Alle' },
    incomplete: /^Unvollständig: Die Woche ab .+ ist noch nicht vorbei und bleibt bei den Vergleichen außen vor\.$/,
    versus: /ggü\. (Vorwoche|den \d+ Wochen davor)/,
    noPrevious: /^— .*ggü\. (Vorwoche|den \d+ Wochen davor)/,
    cohortLegend: 'Anteil der Kohorte, der noch aktiv ist:',
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

/**
 * What the dashboard shows: every KPI's text and, per chart, the geometry of its bars and lines (the
 * incomplete-period shade aside). Equal snapshots: the same figures drawn the same way.
 */
function snapshot(page: Page): Promise<{ kpis: string[]; charts: string[] }> {
  return page.evaluate(() => ({
    kpis: [...document.querySelectorAll('[data-testid^="kpi-"] [data-testid="kpi-value"]')].map((value) => value.textContent ?? ''),
    charts: [...document.querySelectorAll('[data-testid^="chart-"]')].map((card) =>
      [...card.querySelectorAll('svg .MuiBarElement-root, svg .MuiLineChart-line')]
        .map((shape) => `${shape.getAttribute('d') ?? ''}|${shape.getAttribute('height') ?? ''}|${shape.getAttribute('y') ?? ''}`)
        .join(';'),
    ),
  }));
}

/** The snapshot once the charts' transitions are over: two snapshots half a second apart agree. */
async function settledSnapshot(page: Page): Promise<Awaited<ReturnType<typeof snapshot>>> {
  let last = await snapshot(page);
  for (let attempt = 0; attempt < 20; attempt++) {
    await page.waitForTimeout(500);
    const next = await snapshot(page);
    if (JSON.stringify(next) === JSON.stringify(last)) return next;
    last = next;
  }
  throw new Error('the dashboard kept changing');
}

/**
 * Until the page says nothing is under way: neither the filter bar (checking a change, waiting for typing to
 * pause, src/pages/admin/analytics/FilterBar.tsx) nor a figure card (its figures asked for) is busy.
 */
async function idle(page: Page): Promise<void> {
  await expect.poll(() => page.locator('[aria-busy="true"]').count()).toBe(0);
  await expect(page.getByRole('search').getAttribute('aria-busy')).resolves.toBe('false');
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
      await openInApp(page, `/${language}/admin/analytics`);
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

      // Issue 21 item 3: an impossible played-time range is marked on its field, nothing is asked of the API,
      // and the figures and charts of the last good filters stay; the address keeps only those. The listener
      // is attached before the fields change, so a request they caused would be seen.
      await figuresRequest(
        page,
        () => page.getByLabel(texts.maxPlayed).fill('10'),
        (query) => query.get('maxPlayed') === '10',
      );
      await page.waitForURL((address) => address.searchParams.get('maxPlayed') === '10');
      await idle(page);
      const before = await settledSnapshot(page);
      expect(before.kpis.every((text) => /\d/.test(text))).toBe(true);
      const asked: string[] = [];
      page.on('request', (request) => {
        const address = new URL(request.url());
        if (address.pathname === '/api/analytics') asked.push(address.search);
      });
      await page.getByLabel(texts.minPlayed).fill('50');
      await shown(page.getByText(texts.minAboveMax));
      await expect(page.getByLabel(texts.minPlayed).getAttribute('aria-invalid')).resolves.toBe('true');
      // The page says when nothing more of the change is to come (the bar's aria-busy covers its check, the
      // pause after typing and the figures asked for): the requests up to then are all it caused.
      await idle(page);
      expect(await settledSnapshot(page)).toEqual(before);
      expect(asked.filter((search) => new URLSearchParams(search).get('minPlayed') === '50')).toEqual([]);
      expect(new URL(page.url()).searchParams.get('minPlayed')).toBeNull();
      expect(new URL(page.url()).searchParams.get('maxPlayed')).toBe('10');

      // A start after the end: the end is marked, and still the same figures.
      const lastGoodFrom = await page.getByLabel(texts.from, { exact: true }).inputValue();
      await page.getByLabel(texts.minPlayed).fill('');
      await page.getByLabel(texts.from, { exact: true }).fill('2099-01-01');
      await shown(page.getByText(texts.fromAfterTo));
      await expect(page.getByLabel(texts.to, { exact: true }).getAttribute('aria-invalid')).resolves.toBe('true');
      await idle(page);
      expect(await settledSnapshot(page)).toEqual(before);
      expect(asked.filter((search) => new URLSearchParams(search).get('from') === '2099-01-01')).toEqual([]);
      expect(new URL(page.url()).searchParams.get('from')).not.toBe('2099-01-01');
      // Put right: the mark goes, and the figures are those of the same good filters.
      await page.getByLabel(texts.from, { exact: true }).fill(lastGoodFrom);
      await expect.poll(() => page.getByText(texts.fromAfterTo).count()).toBe(0);
      await expect(page.getByLabel(texts.to, { exact: true }).getAttribute('aria-invalid')).resolves.toBe('false');
      expect(await settledSnapshot(page)).toEqual(before);

      // A store's entry of the admin menu: the same dashboard for that channel.
      await openInApp(page, `/${language}/admin/analytics/steam`);
      await shown(page.getByRole('heading', { level: 1, name: texts.steam }));
      await shown(page.getByTestId('kpi-sessions').getByTestId('kpi-value'));
      expect(errors).toEqual([]);
    }, 120_000);

    it('opens on the first data; the presets set the range and the address', async () => {
      const { page, errors } = await newPage(browser);
      await signInAsAdmin(page, language);
      const firstDayAnswer = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/analytics/first-day');
      const firstFigures = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/analytics');
      await openInApp(page, `/${language}/admin/analytics`);
      const { firstDay, today } = (await (await firstDayAnswer).json()) as FirstDayResponse;
      // The demo seed reaches 120 days back: the range starts there, not a year back.
      if (firstDay === null) throw new Error('the demo seed has no first day');
      expect(firstDay > presetRange('last12Months', today, null).from).toBe(true);
      expect(new URL((await firstFigures).url()).searchParams.get('from')).toBe(firstDay);
      const from = page.getByLabel(texts.from, { exact: true });
      await expect.poll(() => from.inputValue()).toBe(firstDay);
      const presets = page.getByTestId('range-presets');
      await expect(presets.getByRole('button', { name: texts.presets.all }).getAttribute('aria-pressed')).resolves.toBe('true');

      const thirty = presetRange('last30Days', today, firstDay);
      await figuresRequest(
        page,
        () => presets.getByRole('button', { name: texts.presets.last30Days }).click(),
        (query) => query.get('from') === thirty.from && query.get('to') === thirty.to,
      );
      await page.waitForURL((address) => address.searchParams.get('from') === thirty.from);
      await expect.poll(() => from.inputValue()).toBe(thirty.from);
      await expect(presets.getByRole('button', { name: texts.presets.last30Days }).getAttribute('aria-pressed')).resolves.toBe('true');
      await expect(presets.getByRole('button', { name: texts.presets.all }).getAttribute('aria-pressed')).resolves.toBe('false');

      const year = presetRange('last12Months', today, firstDay);
      await figuresRequest(
        page,
        () => presets.getByRole('button', { name: texts.presets.last12Months }).click(),
        (query) => query.get('from') === year.from,
      );
      await page.waitForURL((address) => address.searchParams.get('from') === year.from);
      // A reload keeps the chosen range.
      await page.reload();
      await expect.poll(() => from.inputValue()).toBe(year.from);
      await expect(presets.getByRole('button', { name: texts.presets.last12Months }).getAttribute('aria-pressed')).resolves.toBe('true');

      // All: the default again, so the plain address.
      await presets.getByRole('button', { name: texts.presets.all }).click();
      await page.waitForURL((address) => !address.searchParams.has('from'));
      await expect.poll(() => from.inputValue()).toBe(firstDay);
      expect(errors).toEqual([]);
    }, 90_000);

    it('hatches the incomplete week with its legend, and shows each KPI against the previous weeks', async () => {
      const { page, errors } = await newPage(browser);
      await signInAsAdmin(page, language);
      const opened = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/analytics');
      await openInApp(page, `/${language}/admin/analytics`);
      const figures = (await (await opened).json()) as AnalyticsResponse;
      // The range ends today: the current week is not over.
      expect(figures.incompleteFrom).toBe(figures.series[figures.series.length - 1]?.period);
      for (const chart of ['sessions', 'new-users']) {
        const card = page.getByTestId(`chart-${chart}`);
        const shade = card.getByTestId('incomplete-period');
        await shown(shade);
        const box = await shade.locator('rect').last().boundingBox();
        expect(box?.width, chart).toBeGreaterThan(0);
        expect(box?.height, chart).toBeGreaterThan(100);
        await expect.poll(() => card.getByTestId('incomplete-legend').textContent()).toMatch(texts.incomplete);
        // The shade says in words what it shows: the legend's sentence.
        const label = (await shade.getAttribute('aria-label')) ?? '';
        expect(label.length).toBeGreaterThan(10);
        await expect(card.getByTestId('incomplete-legend').textContent()).resolves.toContain(label);
      }
      // From the first data on, the weeks before hold nothing: a dash, not a percentage.
      const sessionsChange = page.getByTestId('kpi-sessions').getByTestId('kpi-change');
      await expect.poll(() => sessionsChange.textContent()).toMatch(texts.noPrevious);

      // The last 30 days against the weeks before them, which the demo seed fills.
      const thirty = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/analytics' && new URL(response.url()).searchParams.has('from'));
      await page.getByTestId('range-presets').getByRole('button', { name: texts.presets.last30Days }).click();
      const compared = ((await (await thirty).json()) as AnalyticsResponse).comparison;
      if (!compared) throw new Error('no comparison for the last 30 days');
      expect(compared.previous.sessions).toBeGreaterThan(0);
      const percent = compared.change.sessions as number;
      const shownPercent = page.getByTestId('kpi-sessions').getByTestId('kpi-change-percent');
      await expect.poll(() => shownPercent.textContent()).toBe(new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format(percent / 100));
      await expect(sessionsChange.getAttribute('data-direction')).resolves.toBe(percent > 0 ? 'up' : percent < 0 ? 'down' : 'flat');
      await expect(sessionsChange.textContent()).resolves.toMatch(texts.versus);
      await expect(sessionsChange.textContent()).resolves.toMatch(percent > 0 ? /▲/ : percent < 0 ? /▼/ : /▶/);
      // Every KPI has its line.
      await expect(page.getByTestId('kpi-change').count()).resolves.toBe(9);
      await expect(seriousViolations(page)).resolves.toEqual([]);
      expect(errors).toEqual([]);
    }, 90_000);

    it('the cohort table fits a 390 px phone: it scrolls in its own box under a sticky cohort column, with a legend', async () => {
      const context = await newContext(browser, { locale: language === 'de' ? 'de-DE' : 'en-US', viewport: { width: 390, height: 844 } });
      const { page, errors } = await newPage(browser, context);
      await signInAsAdmin(page, language);
      await openInApp(page, `/${language}/admin/cohort`);
      await shown(page.getByTestId('cohort-table').getByTestId('retention').first());
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      const box = page.getByTestId('cohort-scroll');
      const widths = await box.evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
      expect(widths.scroll).toBeGreaterThan(widths.client);
      // Readable cells: none squeezed below the width of "100 %" over a user count.
      const narrowest = await page.getByTestId('retention').evaluateAll((cells) => Math.min(...cells.map((cell) => cell.getBoundingClientRect().width)));
      expect(narrowest).toBeGreaterThanOrEqual(88);
      const cohortCell = page.getByTestId('cohort-name').first();
      const left = (await cohortCell.boundingBox())?.x ?? NaN;
      await box.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
      await expect.poll(() => box.evaluate((element) => element.scrollLeft)).toBeGreaterThan(50);
      expect((await cohortCell.boundingBox())?.x).toBeCloseTo(left, 0);
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await expect(page.getByTestId('cohort-legend').textContent()).resolves.toContain(texts.cohortLegend);
      expect(errors).toEqual([]);
    }, 60_000);

    it('shows retention percentages per sign-up cohort', async () => {
      const { page, errors } = await newPage(browser);
      await signInAsAdmin(page, language);
      await openInApp(page, `/${language}/admin/cohort`);
      await shown(page.getByRole('heading', { level: 1, name: texts.cohort }));
      const cells = page.getByTestId('cohort-table').getByTestId('retention');
      await shown(cells);
      const percents = (await cells.allTextContents()).filter((text) => texts.percent.test(text));
      expect(percents.length).toBeGreaterThan(0);
      // The shaded cells keep their text readable.
      await expect(seriousViolations(page)).resolves.toEqual([]);
      await openInApp(page, `/${language}/admin/cohort?granularity=month`);
      await shown(page.getByTestId('cohort-table').getByTestId('retention'));
      expect(errors).toEqual([]);
    }, 60_000);

    it('a session reported by the desktop client shows in the sessions KPI without a reload', async () => {
      const { page, errors } = await newPage(browser);
      await signInAsAdmin(page, language);
      await openInApp(page, `/${language}/admin/analytics`);
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
    }, 90_000);
  });
}
