import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { describeRouteWalk, walkTokens } from './route-walk.js';
import { launchBrowser, newPage, shown, url } from './browser.js';

/**
 * Every route of the route table under /en (route-walk.ts: axe-core, WCAG 2.1 A and AA, no serious or
 * critical violation; no page wider than a 390 px phone; /de is in accessibility-de.test.ts), and the
 * keyboard alone.
 */
describeRouteWalk('/en');

let browser: Browser;
let tokens: { user: string; admin: string; userId: string } = { user: '', admin: '', userId: '' };

beforeAll(async () => {
  browser = await launchBrowser();
  tokens = await walkTokens();
});
afterAll(async () => {
  await browser?.close();
});

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
  });

  it('the account menu opens, moves and closes with the keyboard', async () => {
    const { context, page } = await newPage(browser);
    await context.addInitScript((token) => localStorage.setItem('token', token), tokens.user);
    await page.goto(url('/account/profile'));
    const button = page.getByRole('button', { name: 'Open account menu' });
    const menu = page.getByRole('menu');
    // Pressed once the page has drawn (its heading shown, nothing loading): a key pressed while the frame
    // is still swapping its loading state for the page lands on a button that is about to be replaced
    // (CI saw the menu never open on a loaded machine). Pressed again only if it did not open.
    await shown(page.getByRole('heading', { level: 1 }));
    await expect.poll(() => page.getByRole('progressbar').count(), { timeout: 30_000 }).toBe(0);
    await expect
      .poll(
        async () => {
          if (!(await menu.isVisible())) {
            await button.focus();
            await page.keyboard.press('Enter');
            await menu.waitFor({ state: 'visible', timeout: 3000 }).catch(() => undefined);
          }
          return menu.isVisible();
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(true);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    await expect(page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).resolves.toBe('Open account menu');
  });
});
