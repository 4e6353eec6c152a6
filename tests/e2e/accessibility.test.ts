import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ROUTES, type RouteEntry } from '../../src/routing/routes.js';
import { addressOf, visitorOf, walkTokens } from './route-walk.js';
import { launchBrowser, newPage, seriousViolations, shown, url } from './browser.js';

/**
 * Every route of the route table, in en and de, scanned with axe-core (WCAG 2.1 A and AA): no serious or
 * critical violation. Public pages as a visitor, account pages as a user, admin pages as an admin.
 */
let browser: Browser;
let tokens: { user: string; admin: string; userId: string } = { user: '', admin: '', userId: '' };

beforeAll(async () => {
  browser = await launchBrowser();
  tokens = await walkTokens();
});
afterAll(async () => {
  await browser?.close();
});

async function visit(page: Page, route: RouteEntry, prefix: string) {
  const address = addressOf(route, prefix, tokens);
  await page.goto(url(address));
  // Named in the failure: one test walks every route of its kind. The waits are generous: in the full suite
  // this walk runs beside the other browser files on two cores (a clean-clone run took 180 s for the user
  // pages, and a legal page's heading over 20 s).
  await expect.poll(() => page.locator('h1').first().isVisible(), { message: `${address} showed no heading`, timeout: 45_000 }).toBe(true);
  // Audited once drawn as the reader sees it: nothing still loading (no progress indicator) and no fade or
  // colour transition under way (axe would measure the colours half-way). Endless animations (a spinner
  // waiting for a webhook) do not count.
  await expect.poll(() => page.getByRole('progressbar').count(), { message: `${address} never finished loading` }).toBe(0);
  await expect
    .poll(() => page.evaluate(() => document.getAnimations().filter((animation) => animation.effect?.getTiming().iterations !== Infinity).length), {
      message: `${address} never stopped moving`,
    })
    .toBe(0);
}

/**
 * The serious violations of a page once it has settled: on a loaded machine a page can still be swapping
 * its loading state for its content when the first audit runs (a checkout's summary measured against a
 * backdrop on its way out). A real violation stays; one that goes within a few seconds was the page
 * still drawing. The last audit's findings are reported.
 */
async function settledViolations(page: Page): Promise<string[]> {
  let violations = await seriousViolations(page);
  const deadline = Date.now() + 5000;
  while (violations.length > 0 && Date.now() < deadline) violations = await seriousViolations(page);
  return violations;
}

for (const prefix of ['/en', '/de']) {
  describe(`accessibility of every route (${prefix})`, () => {
    for (const kind of ['visitor', 'user', 'admin'] as const) {
      const routes = ROUTES.filter((route) => visitorOf(route) === kind);
      it(`${kind} pages have no serious or critical axe violations`, async () => {
        const { context, page } = await newPage(browser);
        if (kind !== 'visitor') {
          await context.addInitScript((token) => localStorage.setItem('token', token), tokens[kind]);
        }
        // The live event stream stays open by design, so a page holding it never goes network-idle.
        await context.route('**/api/events', (route) => route.abort());
        const found: string[] = [];
        for (const route of routes) {
          await visit(page, route, prefix);
          for (const violation of await settledViolations(page)) found.push(`${addressOf(route, prefix, tokens)}: ${violation}`);
        }
        await context.close();
        expect(found, found.join('\n')).toEqual([]);
      }, 420_000);
    }
  });
}

describe('keyboard alone', () => {
  it('signs in with Tab, typing and Enter, starting from the skip link', async () => {
    const { page } = await newPage(browser);
    await page.goto(url('/login'));
    await shown(page.locator('h1'));
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Skip to main content');
    await page.keyboard.press('Enter');
    // From the main landmark, the first field is the email.
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('email');
    await page.keyboard.type(inject('adminEmail'));
    await page.keyboard.press('Tab');
    await page.keyboard.type(inject('adminPassword'));
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/');
    await page.context().close();
  });

  it('the account menu opens, moves and closes with the keyboard', async () => {
    const { context, page } = await newPage(browser);
    await context.addInitScript((token) => localStorage.setItem('token', token), tokens.user);
    await page.goto(url('/account/profile'));
    await shown(page.getByRole('button', { name: 'Open account menu' }));
    await page.getByRole('button', { name: 'Open account menu' }).focus();
    await page.keyboard.press('Enter');
    await shown(page.getByRole('menu'));
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'hidden' });
    await expect(page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).resolves.toBe('Open account menu');
    await context.close();
  });
});
