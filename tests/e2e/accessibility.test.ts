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
