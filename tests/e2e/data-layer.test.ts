import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifiedUser, launchBrowser, newPage, shown, signIn, url } from './browser.js';

/**
 * Issue 18: the web app reads through Refine's data layer. The current user (`GET /api/users/me`) is read
 * once when the app starts and not again on later navigations; a form checks its fields with the
 * contract's schema before sending, and its outcome is a notification.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function signedIn(language: 'en' | 'de'): Promise<{ page: Page; errors: string[] }> {
  const user = await createVerifiedUser(language);
  const opened = await newPage(browser);
  await signIn(opened.page, `/${language}/login`, user.email, user.password, language === 'en' ? /^sign in$/i : /^anmelden$/i);
  await opened.page.waitForURL((address) => !address.pathname.endsWith('/login'));
  // The screen after the sign-in has read the user before the test counts reads: its request, sent after the
  // address changed, was once counted as the next load's (a full suite on two cores, 2026-11-27).
  await shown(opened.page.getByRole('heading', { level: 1 }));
  return opened;
}

describe('one data layer (issue 18)', () => {
  it('reads /users/me at most once per navigation: once on load, never again moving between pages', async () => {
    const { page, errors } = await signedIn('en');
    const reads: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'GET' && new URL(request.url()).pathname === '/api/users/me') reads.push(request.url());
    });

    await page.goto(url('/en/account/profile'));
    await shown(page.getByRole('textbox', { name: /first name/i }));
    expect(reads).toHaveLength(1);

    for (const [link, heading] of [
      ['Subscription', /subscription/i],
      ['Purchase history', /purchase history/i],
      ['Security and sessions', /security/i],
      ['Profile', /profile/i],
    ] as const) {
      await page.getByRole('navigation').getByRole('link', { name: link, exact: true }).click();
      await shown(page.getByRole('heading', { level: 1, name: heading }));
    }
    expect(reads).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it('moving between pages inside the app, the frame never shows without a page', async () => {
    const { page, errors } = await signedIn('en');
    await page.goto(url('/en/account/profile'));
    await shown(page.getByRole('textbox', { name: /first name/i }));
    const visit = async (link: string, heading: RegExp) => {
      await page.getByRole('navigation').getByRole('link', { name: link, exact: true }).click();
      await shown(page.getByRole('heading', { level: 1, name: heading }));
    };
    // One round first, so that each page's code is in: a page whose code is still on its way shows a spinner.
    await visit('Subscription', /subscription/i);
    await visit('Purchase history', /purchase history/i);
    await visit('Profile', /profile/i);
    // After every change to the page (before the browser can paint it), is there a page heading?
    await page.evaluate(() => {
      const state = window as unknown as { headingless: number };
      state.headingless = 0;
      new MutationObserver(() => {
        if (!document.querySelector('h1')) state.headingless++;
      }).observe(document.body, { childList: true, subtree: true });
    });
    await visit('Subscription', /subscription/i);
    await visit('Purchase history', /purchase history/i);
    await visit('Profile', /profile/i);
    expect(await page.evaluate(() => (window as unknown as { headingless: number }).headingless)).toBe(0);
    expect(errors).toEqual([]);
  });

  it('a form checks its fields with the contract schema before anything is sent, in the reader language', async () => {
    const { page } = await signedIn('de');
    const writes: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH' && new URL(request.url()).pathname === '/api/users/me') writes.push(request.url());
    });
    await page.goto(url('/de/account/profile'));
    const firstName = page.getByRole('textbox', { name: /vorname/i });
    await shown(firstName);
    await firstName.fill('   ');
    await page.getByRole('button', { name: /^änderungen speichern$/i }).click();
    await shown(page.getByText('Vorname ist erforderlich.'));
    expect(writes).toEqual([]);

    // Fixed, it saves, and says so once, in German.
    await firstName.fill('Erika');
    await page.getByRole('button', { name: /^änderungen speichern$/i }).click();
    await shown(page.getByRole('alert').getByText(/gespeichert/i));
    expect(writes).toHaveLength(1);
  });
});
