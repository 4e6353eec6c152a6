import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifiedUser, launchBrowser, newContext, newPage, shown, signIn, url } from './browser.js';

/**
 * A screen's first load (README, Performance): the page names its screen's chunks (modulepreload), a
 * signed-in screen's only to a browser that holds a session (the `shapelab_signed_in` cookie, kept by the
 * SPA's session store), and a visitor without one never downloads the signed-in frame. Each test is a first
 * visit: a context of its own, with nothing in its HTTP cache (a kept tab would serve chunks from it).
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const firstVisit = async () => newPage(browser, await newContext(browser, { locale: 'en-US' }));

const preloads = (page: Page) => page.locator('link[rel=modulepreload]').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
/** The chunks a page names as the server sent it (the app adds links of its own once running). */
const namedIn = (html: string | undefined) => [...(html ?? '').matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((match) => match[1] ?? '');
const sessionHint = async (page: Page) => (await page.context().cookies()).find((cookie) => cookie.name === 'shapelab_signed_in')?.value;

describe('the first screen’s code comes with the page', () => {
  it('sign-in names its own chunks and the language’s texts; a visitor at a signed-in address downloads no frame', async () => {
    const { page, errors } = await firstVisit();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(url('/de/login'));
    await shown(page.getByRole('heading', { level: 1, name: 'Bei Shapelab anmelden' }));
    const named = await preloads(page);
    expect(named.some((href) => /\/assets\/Login-[\w-]+\.js$/.test(href))).toBe(true);
    expect(named.some((href) => /\/assets\/translation-[\w-]+\.js$/.test(href))).toBe(true);

    // The root is the account home: a visitor is sent to sign-in without the frame's code.
    scripts.length = 0;
    await page.goto(url('/account/profile'));
    await page.waitForURL(/\/login/);
    await shown(page.getByRole('heading', { level: 1 }));
    expect(scripts.filter((script) => /\/(AccountLayout|AccessGate|account-pages|Profile)-/.test(script))).toEqual([]);
    expect(await sessionHint(page)).toBeUndefined();
    expect(errors).toEqual([]);
  });

  it('signed in, the hint cookie is set and the profile’s page names its chunks; signed out, both are gone', async () => {
    const user = await createVerifiedUser();
    const { page, errors } = await firstVisit();
    await page.goto(url('/login'));
    await page.locator('#email').fill(user.email);
    await page.locator('#password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await shown(page.getByRole('heading', { level: 1, name: 'Account overview' }));
    // The home is an overview only (issue 48 item 8): the profile's sections are not on it.
    await expect.poll(() => page.getByTestId('home-plan-name').count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'Delete account' }).count()).toBe(0);
    expect(await sessionHint(page)).toBe('1');

    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    const served = await (await page.goto(url('/account/profile')))?.text();
    await shown(page.getByRole('heading', { level: 1, name: 'Profile' }));
    await shown(page.getByRole('heading', { name: 'Delete account' }));
    const named = namedIn(served);
    for (const chunk of ['AccountLayout', 'AccessGate', 'Profile', 'refine', 'account', 'PasswordForm', 'YourData']) {
      expect(named.some((href) => new RegExp(`/assets/${chunk}-[\\w-]+\\.js$`).test(href)), chunk).toBe(true);
    }
    // Everything the screen ran was named by the page, none asked for by its code once running (a round trip
    // more each, after the user's answer for the sections): only the entry itself is not a preload.
    expect(scripts.filter((script) => !named.includes(script) && !/\/assets\/index-[\w-]+\.js$/.test(script))).toEqual([]);
    // The screen was rendered whole: no loading spinner is left, and the form holds the user's email.
    await expect.poll(() => page.getByRole('progressbar').count()).toBe(0);

    // The home names its overview's code but not the profile sections below it: those load as they come on
    // screen (scripts/bundle-weights.ts, ON_DEMAND_MODULES), not beside the overview on every first visit.
    const home = await (await page.goto(url('/')))?.text();
    await shown(page.getByRole('heading', { level: 1, name: 'Account overview' }));
    const homeNames = namedIn(home);
    expect(homeNames.some((href) => /\/assets\/Home-[\w-]+\.js$/.test(href))).toBe(true);
    expect(homeNames.filter((href) => /\/assets\/(ProfileSections|PasswordForm|YourData)-/.test(href))).toEqual([]);

    await page.getByRole('button', { name: 'Open account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login/);
    await expect.poll(() => sessionHint(page)).toBeUndefined();
    await page.goto(url('/account/profile'));
    await page.waitForURL(/\/login/);
    expect((await preloads(page)).some((href) => href.includes('/AccountLayout-'))).toBe(false);
    expect(errors).toEqual([]);
  });

  it('a signed-in screen paints without a spinner: first the frame with its whole menu, then with its screen; a phone renders its drawer only when opened', async () => {
    const user = await createVerifiedUser();
    const { page, errors } = await firstVisit();
    await signIn(page, '/login', user.email, user.password, /^sign in$/i);
    await shown(page.getByRole('heading', { level: 1, name: 'Account overview' }));

    // Every change React makes to the page is one batch of mutations; each batch that shows the frame's top
    // bar is recorded with what else was on screen then. The frame shows first, whole, and the next change
    // shows the screen (src/routing/AccessGate.tsx: two short tasks on a phone instead of one long one).
    await page.addInitScript(() => {
      const seen: { links: number; heading: boolean; spinner: boolean }[] = [];
      (window as unknown as { framesSeen: typeof seen }).framesSeen = seen;
      new MutationObserver(() => {
        if (!document.querySelector('header')) return;
        seen.push({
          links: document.querySelectorAll('nav a').length,
          heading: document.querySelector('h1') !== null,
          spinner: document.querySelector('[role="progressbar"]') !== null,
        });
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(url('/account/profile'));
    await shown(page.getByRole('heading', { level: 1, name: 'Profile' }));
    const framesSeen = await page.evaluate(() => (window as unknown as { framesSeen: { links: number; heading: boolean; spinner: boolean }[] }).framesSeen);
    expect(framesSeen.length).toBeGreaterThan(0);
    expect(framesSeen.filter((frame) => frame.links === 0 || frame.spinner)).toEqual([]);
    expect(framesSeen.slice(1).filter((frame) => !frame.heading)).toEqual([]);

    // A phone: no drawer and no second menu hidden in the page; the menu button opens the one drawer.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(url('/account/profile'));
    await shown(page.getByRole('heading', { level: 1, name: 'Profile' }));
    expect(await page.locator('nav').count()).toBe(0);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await shown(nav.getByRole('link', { name: 'Device manager' }));
    expect(await page.locator('nav').count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('the account home and the subscription page render with their record: no spinner or skeleton stands in for it', async () => {
    const user = await createVerifiedUser();
    const { page, errors } = await firstVisit();
    await signIn(page, '/login', user.email, user.password, /^sign in$/i);
    await shown(page.getByRole('heading', { level: 1, name: 'Account overview' }));
    // Each batch of changes that shows the screen's heading is recorded with whether a spinner, a skeleton or
    // a busy region is on screen (src/boot/firstRecord.ts: the record is asked for beside the code).
    await page.addInitScript(() => {
      const seen: boolean[] = [];
      (window as unknown as { standinsSeen: boolean[] }).standinsSeen = seen;
      new MutationObserver(() => {
        if (document.querySelector('h1')) seen.push(document.querySelector('[role="progressbar"], .MuiSkeleton-root, [aria-busy="true"]') !== null);
      }).observe(document, { childList: true, subtree: true });
    });
    // What each page asked of the API, by the page's address.
    const asked = new Map<string, string[]>();
    let current = '';
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/api/')) asked.set(current, [...(asked.get(current) ?? []), path]);
    });
    for (const [address, heading, record] of [
      ['/', 'Account overview', page.getByTestId('home-plan-name')],
      ['/account/subscription', 'Subscription', page.getByText('You have no subscription', { exact: false })],
    ] as const) {
      current = address;
      await page.goto(url(address));
      await shown(page.getByRole('heading', { level: 1, name: heading }));
      await shown(record);
      const seen = await page.evaluate(() => (window as unknown as { standinsSeen: boolean[] }).standinsSeen);
      expect(seen.length, address).toBeGreaterThan(0);
      expect(seen.filter(Boolean).length, address).toBe(0);
    }
    // Asked once each: the screen's hooks show the answers asked for beside the code, without asking again.
    // The subscription page's next charge is the overview's (issue 48 item 9): asked once there too, never twice.
    for (const [address, paths] of asked) {
      for (const path of new Set(paths)) expect(paths.filter((one) => one === path), `${address}: ${path}`).toHaveLength(1);
    }
    expect(asked.get('/')).toContain('/api/users/me/overview');
    expect(asked.get('/account/subscription')).toContain('/api/subscription/user');
    expect(errors).toEqual([]);
  });
});
