import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createVerifiedUser, launchBrowser, newPage, shown, signIn, url } from './browser.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('walking skeleton in Chromium', () => {
  it('the admin signs in at /admin/login with the printed credentials and lands in the admin area', async () => {
    const { page, errors } = await newPage(browser);
    await signIn(page, '/admin/login', inject('adminEmail'), inject('adminPassword'), /sign in as administrator/i);
    await page.waitForURL(/\/admin\/users$/);
    await shown(page.getByRole('heading', { level: 1, name: 'Users' }));
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    for (const entry of ['Analytics', 'Cohort', 'Users', 'Shapelab Lite keys', 'Steam', 'MetaPC store', 'VIVEPORT', 'Android']) {
      await expect(nav.getByRole('link', { name: entry, exact: true }).count()).resolves.toBe(1);
    }
    // The view switch moves to the user area with the user menu.
    await page.getByRole('button', { name: 'User', exact: true }).click();
    await page.waitForURL(/\/account\/profile$/);
    await shown(nav.getByRole('link', { name: 'Device manager' }));
    expect(errors).toEqual([]);
  });

  it('/de/login shows German texts', async () => {
    const { page } = await newPage(browser);
    await page.goto(url('/de/login'));
    await shown(page.getByRole('heading', { level: 1, name: 'Bei Shapelab anmelden' }));
    await shown(page.getByLabel('E-Mail-Adresse'));
    await shown(page.getByLabel('Angemeldet bleiben'));
    await shown(page.getByRole('button', { name: 'Anmelden', exact: true }));
    await expect(page.evaluate(() => document.documentElement.lang)).resolves.toBe('de');
  });

  for (const [prefix, message] of [
    ['', 'Email or password is incorrect.'],
    ['/de', 'E-Mail-Adresse oder Passwort ist falsch.'],
  ] as const) {
    it(`a wrong password shows the translated error (${prefix || '/en default'})`, async () => {
      const { page } = await newPage(browser);
      await page.goto(url(`${prefix}/login`));
      await page.locator('#email').fill(inject('adminEmail'));
      await page.locator('#password').fill('definitely-wrong-1');
      await page.locator('form button[type=submit]').click();
      await shown(page.getByRole('alert').getByText(message));
    });
  }

  it('the login form shows the validation texts of spec section 5', async () => {
    const { page } = await newPage(browser);
    await page.goto(url('/login'));
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await shown(page.getByText('Email is required'));
    await page.locator('#email').fill('not-an-email');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await shown(page.getByText('Invalid email'));
  });

  for (const [path, title] of [
    ['/no/such/page', 'Page not found'],
    ['/de/gibt-es-nicht', 'Seite nicht gefunden'],
  ] as const) {
    it(`an unknown path shows not-found (${path})`, async () => {
      const { page } = await newPage(browser);
      await page.goto(url(path));
      await shown(page.getByTestId('not-found'));
      await shown(page.getByRole('heading', { level: 1, name: title }));
    });
  }

  it('a signed-out visitor is sent to login, or admin-login for admin paths, and comes back after signing in', async () => {
    const { page } = await newPage(browser);
    await page.goto(url('/account/device-manager'));
    await page.waitForURL(/\/login\?to=%2Faccount%2Fdevice-manager$/);
    await page.goto(url('/admin/analytics'));
    await page.waitForURL(/\/admin\/login\?to=%2Fadmin%2Fanalytics$/);
    await page.locator('#email').fill(inject('adminEmail'));
    await page.locator('#password').fill(inject('adminPassword'));
    await page.locator('form button[type=submit]').click();
    await page.waitForURL(/\/admin\/analytics$/);
  });

  it('a user without the admin role is sent from an admin page to root; the API refuses with 403', async () => {
    const user = await createVerifiedUser();
    const { page } = await newPage(browser);
    await signIn(page, '/login', user.email, user.password, /^sign in$/i);
    await page.waitForURL((u) => u.pathname === '/');
    await page.goto(url('/admin/users'));
    await page.waitForURL((u) => u.pathname === '/');
    const status = await page.evaluate(async () => {
      const response = await fetch('/api/users', { headers: { Authorization: `Bearer ${localStorage.getItem('token')}` } });
      return response.status;
    });
    expect(status).toBe(403);
  });

  it('the chosen locale is kept and re-added to paths without it', async () => {
    const { page } = await newPage(browser);
    await page.goto(url('/de/login'));
    await shown(page.getByRole('heading', { level: 1, name: 'Bei Shapelab anmelden' }));
    await page.goto(url('/forgot-password'));
    await page.waitForURL(/\/de\/forgot-password$/);
    await page.getByRole('link', { name: 'English' }).click();
    await page.waitForURL(/\/en\/forgot-password$/);
  });

  it('a signed-in visitor on login is sent back; tokens in the query become the session and leave the address', async () => {
    const user = await createVerifiedUser();
    const { page } = await newPage(browser);
    await page.goto(url('/terms'));
    const token = await page.evaluate(async (credentials) => {
      const response = await fetch('/api/auth/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(credentials),
      });
      return ((await response.json()) as { access_token: string }).access_token;
    }, { email: user.email, password: user.password });
    await page.goto(url(`/account/profile?access-token=${token}&tab=1`));
    await page.waitForURL(/\/account\/profile\?tab=1$/);
    await shown(page.getByRole('heading', { level: 1, name: 'Profile' }));
    await page.goto(url('/login'));
    await page.waitForURL((u) => u.pathname === '/');
  });

  it('signing out in one tab signs out the other', async () => {
    const user = await createVerifiedUser();
    const first = await newPage(browser);
    await signIn(first.page, '/login', user.email, user.password, /^sign in$/i);
    await first.page.waitForURL((u) => u.pathname === '/');
    const second = await newPage(browser, first.context);
    await second.page.goto(url('/account/subscription'));
    await shown(second.page.getByRole('heading', { level: 1, name: 'Subscription' }));

    await first.page.getByRole('button', { name: 'Open account menu' }).click();
    await first.page.getByRole('menuitem', { name: 'Sign out' }).click();
    await first.page.waitForURL(/\/login$/);
    await second.page.waitForURL(/\/login$/);
    await expect(second.page.evaluate(() => localStorage.getItem('token'))).resolves.toBeNull();
  });
});
