import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, url } from './browser.js';

/**
 * The browser tests' kept tab (tests/e2e/browser.ts, newPage): a passed test's tab goes to the file's next
 * test, and must arrive as a new one would, or one test's session would leak into the next. The tests
 * here run in order: each leaves something behind and the next one looks for it.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function apiAnswers(page: Page): Promise<number> {
  return page.evaluate(async () => (await fetch('/api/health')).status).catch(() => 0);
}

describe('a kept tab', () => {
  let left: Page | undefined;
  let tainted: Page | undefined;
  const heardByTheFirstTest: string[] = [];

  it('is left with a session, a cookie, a route, a listener and a phone’s viewport', async () => {
    const { page, context } = await newPage(browser);
    await page.goto(url('/en/login'));
    await page.evaluate(() => {
      localStorage.setItem('token', 'left-behind');
      sessionStorage.setItem('left', 'behind');
    });
    await context.addCookies([{ name: 'left', value: 'behind', url: url('/') }]);
    await page.route('**/api/health', (route) => route.abort());
    await context.route('**/api/health', (route) => route.abort());
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    page.on('console', (message) => heardByTheFirstTest.push(message.text()));
    expect(await apiAnswers(page)).toBe(0);
    left = page;
    // (The aborted request was logged on the console.)
    heardByTheFirstTest.length = 0;
  });

  it('goes to the next test with none of it', async () => {
    const { page, context } = await newPage(browser);
    expect(page).toBe(left);
    expect(await context.cookies()).toEqual([]);
    expect(page.viewportSize()).toEqual({ width: 1280, height: 720 });
    expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(false);
    expect(await page.evaluate(() => [localStorage.length, sessionStorage.length])).toEqual([0, 0]);
    expect(await apiAnswers(page)).toBe(200);
    await page.evaluate(() => console.log('said in the second test'));
    expect(heardByTheFirstTest).toEqual([]);
    // The app starts signed out in it.
    await page.goto(url('/en/account/profile'));
    await page.waitForURL(/\/en\/login/);
  });

  it('is not kept once a test gave it an init script, which nothing can remove', async () => {
    const { page } = await newPage(browser);
    await page.addInitScript(() => {
      (window as unknown as { leftBehind: boolean }).leftBehind = true;
    });
    tainted = page;
  });

  it('so the next test gets a new tab', async () => {
    const { page } = await newPage(browser);
    expect(page).not.toBe(tainted);
    expect(tainted?.isClosed()).toBe(true);
    await page.goto(url('/en/login'));
    expect(await page.evaluate(() => 'leftBehind' in window)).toBe(false);
  });
});
