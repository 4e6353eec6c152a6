import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PRICE_IDS } from '../../server/sandbox/catalogue.js';
import { ROUTES, type RouteEntry } from '../../src/routing/routes.js';
import { englishCatalogueTexts, POLITE_GERMAN } from '../fixtures/german.js';
import { createVerifiedUser, launchBrowser, moveRouter, newContext, rawTranslationText, rowActionsOutOfReach, scrollToEnd, seriousViolations, showsApp, url, wrappedButtons } from './browser.js';

/**
 * The walk over every route of the route table (tests/e2e/accessibility*.test.ts, one file per locale so
 * the two run beside each other): who visits a route, a concrete address for its pattern, the tokens of a
 * user and the admin, and what is checked on each page.
 */
export type Visitor = 'visitor' | 'user' | 'admin';

export function visitorOf(route: RouteEntry): Visitor {
  if (route.access === 'public' || route.access === 'anonymous') return 'visitor';
  // Issue 47: a staff screen needs a permission; the admin has them all.
  return route.access === 'user' ? 'user' : 'admin';
}

/** An id no account has: a record page walked without a real one shows its "not found" page. */
export const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';

/**
 * The address of a route pattern under a locale prefix ('/en', '/de'). A record's `:id` is the walk's
 * own user when given (the admin user page shows a real account), else an id that matches nothing. A
 * checkout is walked for the yearly plan: it has no launch offer, so its summary ends with the plan's
 * renewal, the text that once showed as raw i18next output (issue 46 item 3).
 */
export function addressOf(route: RouteEntry, prefix: string, subject: { userId?: string } = {}): string {
  const path = `/${route.path}`
    .replace(':id', subject.userId ?? NO_SUCH_ID)
    .replace(':type', 'subscription')
    .replace(':tab', 'login')
    .replace(':priceId?', PRICE_IDS.yearly)
    .replace(':token', 'sample-token')
    .replace('*', 'no-such-page');
  return `${prefix}${path}`.replace(/\/$/, '') || '/';
}

async function accessToken(email: string, password: string, admin: boolean): Promise<string> {
  const response = await fetch(url(admin ? '/api/auth/admin-login' : '/api/auth/login'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

/** The access tokens a walk signs in with: a fresh verified user's and the seeded admin's, and the user's id. */
export async function walkTokens(): Promise<{ user: string; admin: string; userId: string }> {
  const user = await createVerifiedUser();
  const token = await accessToken(user.email, user.password, false);
  // A second session elsewhere: the security page's table then has a row with its sign-out button to reach.
  await accessToken(user.email, user.password, false);
  const me = await fetch(url('/api/users/me'), { headers: { Authorization: `Bearer ${token}` } });
  return {
    user: token,
    admin: await accessToken(inject('adminEmail'), inject('adminPassword'), true),
    userId: ((await me.json()) as { id: string }).id,
  };
}

/** A phone screen's size (an iPhone 14's CSS pixels). */
export const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** What is on screen, for a failure message: the first lines of the page's text. */
async function onScreen(page: Page): Promise<string> {
  const text = await page.evaluate(() => document.body?.innerText ?? '').catch(() => '(page gone)');
  return text.replace(/\s+/g, ' ').trim().slice(0, 300) || '(empty page)';
}

/**
 * Waits until the page has settled: its heading shown, nothing still loading (no progress indicator) and
 * no fade or colour transition under way (axe would measure the colours half-way). Endless animations (a
 * spinner waiting for a webhook) do not count. The waits are generous: in the full suite the walk runs
 * beside the other browser files on two cores.
 */
async function settled(page: Page, address: string): Promise<void> {
  const heading = page.locator('h1').first();
  await expect
    .poll(() => heading.isVisible(), { timeout: 45_000 })
    .toBe(true)
    .catch(async () => {
      throw new Error(`${address} showed no heading; on screen: ${await onScreen(page)}`);
    });
  await expect.poll(() => page.getByRole('progressbar').count(), { message: `${address} never finished loading`, timeout: 30_000 }).toBe(0);
  // Down the page as a reader scrolls: what a screen draws only as it comes on screen is checked too.
  await scrollToEnd(page);
  await expect
    .poll(() => page.evaluate(() => document.getAnimations().filter((animation) => animation.effect?.getTiming().iterations !== Infinity).length), {
      message: `${address} never stopped moving`,
      // As generous as the waits above: the profile reveals its sections one commit at a time, each with its
      // inputs' short transitions, and on a loaded machine the last of them can start seconds after the heading.
      timeout: 15_000,
    })
    .toBe(0);
}

/**
 * Opens an address as the app's own links do once it is running: the address changes in the history and
 * the router renders the route (a full load per route made the walk the suite's longest file, about 2 s of
 * Chromium's CPU a page on two cores, most of it evaluating the same bundle again). The first visit, and
 * one after a page that left the app (a redirect to a provider), load the page. A route with a page of its
 * own is waited for by its heading: the previous page's headings are marked before the move, and the new
 * page has arrived once a heading without the mark is shown (the router keeps the old page on screen while
 * the new one's code loads). A route on the same page as the one before re-renders that page in place.
 */
async function visit(page: Page, address: string, samePage: boolean): Promise<void> {
  if (!(await showsApp(page))) {
    await page.goto(url(address));
  } else {
    await page.evaluate(() => {
      for (const heading of document.querySelectorAll('h1')) heading.dataset.walkLeft = 'true';
    });
    await moveRouter(page, address);
    if (!samePage) {
      await expect
        .poll(() => page.locator('h1:not([data-walk-left])').first().isVisible(), { message: `${address} never replaced the previous page`, timeout: 45_000 })
        .toBe(true);
    }
  }
  await settled(page, address);
}

/**
 * The serious violations of a page once it has settled: on a loaded machine a page can still be swapping
 * its loading state for its content when the first audit runs (a checkout's summary measured against a
 * backdrop on its way out; the analytics charts fading in their legends, which no CSS animation
 * reports, when the walk moved from one report to the next at a load average of 15). A real violation
 * stays; one that goes within 15 s was the page still drawing. The last audit's findings are reported.
 */
async function settledViolations(page: Page): Promise<string[]> {
  let violations = await seriousViolations(page);
  const deadline = Date.now() + 15_000;
  while (violations.length > 0 && Date.now() < deadline) violations = await seriousViolations(page);
  return violations;
}

/**
 * The page's width once narrowed to a phone's screen (the same page, resized: the layout answers to the
 * width through its media queries), its row actions out of reach and its buttons whose label wraps there.
 * It gets a few seconds to re-lay itself out; what is still wider is reported.
 */
async function onPhone(page: Page): Promise<{ width: number; outOfReach: string[]; wrapped: string[] }> {
  await page.setViewportSize(PHONE);
  const width = () => page.evaluate(() => document.documentElement.scrollWidth);
  await expect.poll(width, { timeout: 3000 }).toBeLessThanOrEqual(PHONE.width).catch(() => undefined);
  const found = await width();
  const outOfReach = await reachable(page);
  // The header folds its email button into a menu once its media query has answered the new width.
  await expect
    .poll(() => wrappedButtons(page), { timeout: 3000 })
    .toEqual([])
    .catch(() => undefined);
  const wrapped = await wrappedButtons(page);
  await page.setViewportSize(DESKTOP);
  return { width: found, outOfReach, wrapped };
}

/**
 * The row actions out of reach at the page's current width (rowActionsOutOfReach), given a moment for a table
 * to become its cards after a resize.
 */
async function reachable(page: Page): Promise<string[]> {
  await expect
    .poll(() => rowActionsOutOfReach(page), { timeout: 3000 })
    .toEqual([])
    .catch(() => undefined);
  return rowActionsOutOfReach(page);
}

/**
 * The requests a walked address asks for itself and that must fail: its made-up token or record (a user who
 * follows a broken or old link, or types an address of nothing, causes the refusal the page then explains),
 * by the page it shows. Anything else that fails was asked by the app on its own and fails the walk.
 */
const CAUSED_BY_ADDRESS: Partial<Record<RouteEntry['page'], RegExp>> = {
  verifyEmail: /\/api\/users\/validate\/sample-token$/,
  // The reset link's token goes in the body of the check.
  resetPassword: /\/api\/users\/forget-password\/validate-token$/,
  // The address of nothing: the server answers the page's document with 404 (server/plugins/spa.ts).
  notFound: /\/no-such-page$/,
};

/**
 * What a tab says went wrong while it shows the walked pages: console errors, uncaught page errors, and
 * requests that failed (an answer of 400 or more, or no answer) but those the address asked for itself
 * (CAUSED_BY_ADDRESS). Chromium's own "Failed to load resource" line of a refused request is left out of
 * the console errors: the request itself is judged. A request the app cancels (a query of a page left, the
 * event stream closed) is not a failure. `at` names the address shown when it happened.
 */
export function watchConsole(page: Page): { at: (address: string, route: RouteEntry) => void; unquiet: string[] } {
  const unquiet: string[] = [];
  let address = '(no address yet)';
  let caused: RegExp | undefined;
  const causedHere = (requestUrl: string) => caused?.test(new URL(requestUrl).pathname) === true;
  page.on('console', (message) => {
    if (message.type() !== 'error' || message.text().startsWith('Failed to load resource')) return;
    unquiet.push(`${address}: console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => unquiet.push(`${address}: page error: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() < 400 || causedHere(response.url())) return;
    unquiet.push(`${address}: ${response.request().method()} ${new URL(response.url()).pathname} answered ${response.status()}`);
  });
  page.on('requestfailed', (request) => {
    const failure = request.failure()?.errorText ?? 'no answer';
    if (failure === 'net::ERR_ABORTED' || causedHere(request.url())) return;
    unquiet.push(`${address}: ${request.method()} ${new URL(request.url()).pathname} failed: ${failure}`);
  });
  return {
    at: (shown, route) => {
      address = shown;
      caused = CAUSED_BY_ADDRESS[route.page];
    },
    unquiet,
  };
}

/**
 * What a German page says that it should not (issue 48 item 4, locales/GLOSSARY.md): the polite "Sie" forms,
 * and the English of a catalogue entry whose German the page should show.
 */
async function germanProblems(page: Page): Promise<string[]> {
  const text = await page.evaluate(() => document.body.innerText);
  const polite = [...text.matchAll(new RegExp(POLITE_GERMAN.source, 'gu'))].map((match) => `says "${match[0]}" in "${text.slice(Math.max(0, match.index - 40), match.index + 40).replace(/\s+/g, ' ')}"`);
  const english = englishCatalogueTexts().filter((entry) => text.includes(entry)).map((entry) => `shows the catalogue's English "${entry}"`);
  return [...polite, ...english];
}

/**
 * Every route of the route table under one locale prefix, as the visitor, user or admin it is for: no
 * serious or critical axe-core violation (WCAG 2.1 A and AA) at a desktop's width, no page wider than a
 * 390 px phone, every row action of every table within reach without scrolling sideways at 1280 and at
 * 390 px (issue 48 item 2, rowActionsOutOfReach), no raw translation text (issue 46 item 3: a key that
 * names a group of texts, or a bare key), and a quiet console (issue 48 item 10: no console error and no
 * failed request the visitor did not cause, watchConsole), no button whose label wraps onto a second line at
 * 1280 or at 390 px (issue 48 item 11, wrappedButtons); under /de, German that says du and the
 * catalogue's German (germanProblems). One visit per route serves them all.
 */
export function describeRouteWalk(prefix: string): void {
  let browser: Browser;
  let tokens: { user: string; admin: string; userId: string } = { user: '', admin: '', userId: '' };

  beforeAll(async () => {
    browser = await launchBrowser();
    tokens = await walkTokens();
  });
  afterAll(async () => {
    await browser?.close();
  });

  describe(`every route (${prefix})`, () => {
    for (const kind of ['visitor', 'user', 'admin'] as const) {
      const routes = ROUTES.filter((route) => visitorOf(route) === kind);
      it(`${kind} pages have no serious or critical axe violations, no raw translation text, fit a 390 px phone, keep the console quiet, speak one German and wrap no button`, async () => {
        const context = await newContext(browser, { locale: 'en-US', viewport: DESKTOP });
        if (kind !== 'visitor') {
          await context.addInitScript((token) => localStorage.setItem('token', token), tokens[kind]);
        }
        const page = await context.newPage();
        const quiet = watchConsole(page);
        const violations: string[] = [];
        const wide: string[] = [];
        const raw: string[] = [];
        const german: string[] = [];
        const outOfReach: string[] = [];
        const wrapped: string[] = [];
        let previous: RouteEntry | undefined;
        for (const route of routes) {
          const address = addressOf(route, prefix, tokens);
          quiet.at(address, route);
          await visit(page, address, previous?.page === route.page);
          previous = route;
          for (const violation of await settledViolations(page)) violations.push(`${address}: ${violation}`);
          for (const text of await rawTranslationText(page)) raw.push(`${address}: ${text}`);
          if (prefix === '/de') for (const problem of await germanProblems(page)) german.push(`${address}: ${problem}`);
          for (const action of await reachable(page)) outOfReach.push(`${address} at ${DESKTOP.width} px: ${action}`);
          for (const button of await wrappedButtons(page)) wrapped.push(`${address} at ${DESKTOP.width} px: ${button}`);
          const phone = await onPhone(page);
          if (phone.width > PHONE.width) wide.push(`${address}: ${phone.width} px`);
          for (const action of phone.outOfReach) outOfReach.push(`${address} at ${PHONE.width} px: ${action}`);
          for (const button of phone.wrapped) wrapped.push(`${address} at ${PHONE.width} px: ${button}`);
        }
        expect(violations, violations.join('\n')).toEqual([]);
        expect(raw, `raw translation text:\n${raw.join('\n')}`).toEqual([]);
        expect(wide, `wider than a ${PHONE.width} px phone:\n${wide.join('\n')}`).toEqual([]);
        expect(quiet.unquiet, `asked for by no one:\n${quiet.unquiet.join('\n')}`).toEqual([]);
        expect(german, `not in the German voice:\n${german.join('\n')}`).toEqual([]);
        expect(outOfReach, `row actions out of reach without scrolling sideways:\n${outOfReach.join('\n')}`).toEqual([]);
        expect(wrapped, `buttons whose label wraps onto a second line or is cut:\n${wrapped.join('\n')}`).toEqual([]);
      }, 420_000);
    }
  });
}
