import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ROUTES } from '../../src/routing/routes.js';
import { addressOf, visitorOf, walkTokens } from './route-walk.js';
import { launchBrowser, newContext, shown, url } from './browser.js';

/**
 * Issue 20 item 10: no page is wider than a 390 px phone screen. Every route of the route table, as the
 * visitor, user or admin it is for, in en and de; tables scroll inside their own box. The admin top bar
 * folds its view switch, language and email into the account menu.
 */
const PHONE = { width: 390, height: 844 };

let browser: Browser;
let tokens: { user: string; admin: string; userId: string } = { user: '', admin: '', userId: '' };

beforeAll(async () => {
  browser = await launchBrowser();
  tokens = await walkTokens();
});
afterAll(async () => {
  await browser?.close();
});

async function phonePage(kind: 'visitor' | 'user' | 'admin'): Promise<Page> {
  const context = await newContext(browser, { locale: 'en-US', viewport: PHONE, isMobile: true, hasTouch: true });
  if (kind !== 'visitor') await context.addInitScript((token) => localStorage.setItem('token', token), tokens[kind]);
  // The live event stream stays open by design; nothing here needs it.
  await context.route('**/api/events', (route) => route.abort());
  return context.newPage();
}

/** The page's width once drawn: its heading shown and nothing still loading. */
async function widthOf(page: Page, address: string): Promise<number> {
  await page.goto(url(address));
  await expect.poll(() => page.locator('h1').first().isVisible(), { message: `${address} showed no heading`, timeout: 45_000 }).toBe(true);
  await expect.poll(() => page.getByRole('progressbar').count(), { message: `${address} never finished loading`, timeout: 45_000 }).toBe(0);
  return page.evaluate(() => document.documentElement.scrollWidth);
}

for (const prefix of ['/en', '/de']) {
  describe(`every route fits a 390 px phone (${prefix})`, () => {
    for (const kind of ['visitor', 'user', 'admin'] as const) {
      it(`${kind} pages are at most 390 px wide`, async () => {
        const page = await phonePage(kind);
        const wide: string[] = [];
        for (const route of ROUTES.filter((entry) => visitorOf(entry) === kind)) {
          const address = addressOf(route, prefix, tokens);
          const width = await widthOf(page, address);
          if (width > PHONE.width) wide.push(`${address}: ${width} px`);
        }
        expect(wide, wide.join('\n')).toEqual([]);
      }, 240_000);
    }
  });
}

describe('the admin top bar on a phone', () => {
  it('folds the view switch, language and email into the account menu', async () => {
    const page = await phonePage('admin');
    await page.goto(url('/de/admin/users'));
    await shown(page.locator('h1'));
    await expect(page.getByRole('group', { name: /Ansicht|view/i }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: /Kontomenü|account menu/i }).click();
    const menu = page.getByRole('menu');
    await shown(menu);
    await shown(menu.getByText(inject('adminEmail')));
    await shown(menu.getByRole('menuitem', { name: 'English' }));
    await menu.getByRole('menuitem', { name: 'English' }).click();
    await page.waitForURL((address) => address.pathname.startsWith('/en/admin/users'));
  }, 60_000);
});
