import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PHONE, walkTokens } from './route-walk.js';
import { launchBrowser, newContext, shown, url } from './browser.js';

/**
 * Issue 20 item 10 on a phone: the admin top bar folds its view switch, language and email into the
 * account menu. (That no page is wider than a 390 px phone is checked on every route by the route walk,
 * tests/e2e/route-walk.ts, in the same visit as its accessibility audit.)
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

async function phonePage(kind: 'visitor' | 'user' | 'admin'): Promise<Page> {
  const context = await newContext(browser, { locale: 'en-US', viewport: PHONE, isMobile: true, hasTouch: true });
  if (kind !== 'visitor') await context.addInitScript((token) => localStorage.setItem('token', token), tokens[kind]);
  // The live event stream stays open by design; nothing here needs it.
  await context.route('**/api/events', (route) => route.abort());
  return context.newPage();
}

describe('the admin top bar on a phone', () => {
  it('folds the view switch, language and email into the account menu; the admin texts follow the language switch', async () => {
    const page = await phonePage('admin');
    await page.goto(url('/de/admin/users'));
    await shown(page.locator('h1'));
    // The admin screens' own texts (admin.json) come with their code, in the page's language …
    await shown(page.getByLabel('Nach Name oder E-Mail suchen (Anfang)'));
    await expect(page.getByRole('group', { name: /Ansicht|view/i }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: /Kontomenü|account menu/i }).click();
    const menu = page.getByRole('menu');
    await shown(menu);
    await shown(menu.getByText(inject('adminEmail')));
    await shown(menu.getByRole('menuitem', { name: 'English' }));
    await menu.getByRole('menuitem', { name: 'English' }).click();
    await page.waitForURL((address) => address.pathname.startsWith('/en/admin/users'));
    // … and in the language switched to, whose texts loaded after them.
    await shown(page.getByLabel('Search by name or email (starts with)'));
  }, 60_000);
});
