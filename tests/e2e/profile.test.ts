import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, createVerifiedUser, launchBrowser, newPage, openInApp, scrollTo, shown, signIn, url } from './browser.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});


const TEXTS = {
  en: {
    signIn: /^Sign in$/,
    title: 'Profile',
    save: 'Save changes',
    saved: 'Your profile is saved.',
    firstName: 'First name',
    firstNameRequired: 'First name is required.',
    phone: 'Phone',
    phoneInvalid: 'The phone number is invalid.',
    country: 'Country or region',
    austria: 'Austria',
    newsletter: 'Send me news about Shapelab',
    subscribed: 'You are subscribed to the newsletter.',
    unsubscribed: 'You are unsubscribed from the newsletter.',
    current: 'Current password',
    next: 'New password',
    repeat: 'Repeat the new password',
    change: 'Change password',
    wrongOld: 'The current password is wrong.',
    changed: 'Your password is changed.',
    coupon: 'Coupon code',
    redeem: 'Redeem',
    couponForm: 'Coupon',
    couponInvalid: 'This coupon code is not valid.',
  },
  de: {
    signIn: /^Anmelden$/,
    title: 'Profil',
    save: 'Änderungen speichern',
    saved: 'Dein Profil ist gespeichert.',
    firstName: 'Vorname',
    firstNameRequired: 'Vorname ist erforderlich.',
    phone: 'Telefon',
    phoneInvalid: 'Die Telefonnummer ist ungültig.',
    country: 'Land oder Region',
    austria: 'Österreich',
    newsletter: 'Schickt mir Neuigkeiten zu Shapelab',
    subscribed: 'Du hast den Newsletter abonniert.',
    unsubscribed: 'Du hast den Newsletter abbestellt.',
    current: 'Aktuelles Passwort',
    next: 'Neues Passwort',
    repeat: 'Neues Passwort wiederholen',
    change: 'Passwort ändern',
    wrongOld: 'Das aktuelle Passwort ist falsch.',
    changed: 'Dein Passwort ist geändert.',
    coupon: 'Gutscheincode',
    redeem: 'Einlösen',
    couponForm: 'Gutschein',
    couponInvalid: 'Dieser Gutscheincode ist ungültig.',
  },
} as const;

for (const language of ['en', 'de'] as const) {
  const texts = TEXTS[language];

  describe(`profile in Chromium (${language})`, () => {
    it('edits the personal details with field errors from the client and the server, and keeps them', async () => {
      const user = await createVerifiedUser(language);
      const { page, errors } = await newPage(browser);
      await signIn(page, `/${language}/login`, user.email, user.password, texts.signIn);
      await page.waitForURL(new RegExp(`/${language}$`));
      await openInApp(page, `/${language}/account/profile`);
      await shown(page.getByRole('heading', { level: 1, name: texts.title }));
      await expect(page.getByLabel(texts.firstName).inputValue()).resolves.toBe('E2E');

      await page.getByLabel(texts.firstName).fill(' ');
      await page.getByLabel(texts.phone).fill('0301234');
      await page.getByRole('button', { name: texts.save }).click();
      await shown(page.getByText(texts.firstNameRequired));
      await shown(page.getByText(texts.phoneInvalid, { exact: false }));

      // After a refused save each field is checked as it changes: a corrected one loses its error at once.
      await page.getByLabel(texts.firstName).fill('Grace');
      await page.getByText(texts.firstNameRequired).waitFor({ state: 'detached' });
      await page.getByLabel(texts.phone).fill('+43 1 5551234');
      await page.getByText(texts.phoneInvalid, { exact: false }).first().waitFor({ state: 'detached' });
      // The full list is built when the select is first focused or pressed, as a person would.
      await page.getByLabel(texts.country).focus();
      await page.getByLabel(texts.country).selectOption({ label: texts.austria });
      await page.getByRole('button', { name: texts.save }).click();
      await shown(page.getByRole('alert').getByText(texts.saved));

      await page.reload();
      await expect(page.getByLabel(texts.firstName).inputValue()).resolves.toBe('Grace');
      await expect(page.getByLabel(texts.phone).inputValue()).resolves.toBe('+43 1 5551234');
      await expect(page.getByLabel(texts.country).inputValue()).resolves.toBe('AT');
      expect(errors).toEqual([]);
    });

    it('subscribes to and unsubscribes from the newsletter at once', async () => {
      const user = await createVerifiedUser(language);
      const { page } = await newPage(browser);
      await signIn(page, `/${language}/login`, user.email, user.password, texts.signIn);
      await page.waitForURL(new RegExp(`/${language}$`));
      await openInApp(page, `/${language}/account/profile`);
      const toggle = page.getByLabel(texts.newsletter);
      await expect(toggle.isChecked()).resolves.toBe(false);
      await toggle.check();
      await shown(page.getByText(texts.subscribed));
      await page.reload();
      await expect(page.getByLabel(texts.newsletter).isChecked()).resolves.toBe(true);
      await page.getByLabel(texts.newsletter).uncheck();
      await shown(page.getByText(texts.unsubscribed));
    });

    it('changes the password: a wrong current one is named, the new one works and the old one no longer does', async () => {
      const user = await createVerifiedUser(language);
      const { page } = await newPage(browser);
      await signIn(page, `/${language}/login`, user.email, user.password, texts.signIn);
      await page.waitForURL(new RegExp(`/${language}$`));
      await openInApp(page, `/${language}/account/profile`);
      await page.getByLabel(texts.current).fill('not my password 1');
      await page.locator('#new-password').fill('changed secret 77');
      await shown(page.getByText(texts.wrongOld));
      await page.getByLabel(texts.repeat).fill('changed secret 77');
      await page.getByRole('button', { name: texts.change }).click();
      await shown(page.getByText(texts.wrongOld));

      await page.getByLabel(texts.current).fill(user.password);
      await page.getByRole('button', { name: texts.change }).click();
      await shown(page.getByRole('alert').getByText(texts.changed, { exact: false }));
      expect(await apiLogin(user.email, 'changed secret 77')).toBe(200);
      expect(await apiLogin(user.email, user.password)).toBe(401);
      // This tab stays signed in with the token the change returned.
      await page.reload();
      await shown(page.getByRole('heading', { level: 1, name: texts.title }));
    });

    it('redeems a coupon: an unknown code is refused with the translated error (tests/e2e/devices.test.ts redeems a real one)', async () => {
      const user = await createVerifiedUser(language);
      const { page } = await newPage(browser);
      await signIn(page, `/${language}/login`, user.email, user.password, texts.signIn);
      await page.waitForURL(new RegExp(`/${language}$`));
      await openInApp(page, `/${language}/account/profile`);
      await page.getByLabel(texts.coupon).fill('WINTER-26');
      await page.getByRole('button', { name: texts.redeem }).click();
      await shown(page.getByRole('form', { name: texts.couponForm }).getByRole('alert').getByText(texts.couponInvalid));
      await expect(page.getByLabel(texts.coupon).inputValue()).resolves.toBe('WINTER-26');
    });

    it('a download of the desktop application is recorded on the account (spec section 7)', async () => {
      const user = await createVerifiedUser(language);
      const { page, errors } = await newPage(browser);
      // The builds' host answers a file, as it does: the tab stays on the page and the download starts.
      await page.route('https://downloads.shapelab.app/**', (route) =>
        route.fulfill({ status: 200, contentType: 'application/octet-stream', headers: { 'content-disposition': 'attachment; filename="Shapelab"' }, body: 'build' }),
      );
      await signIn(page, `/${language}/login`, user.email, user.password, texts.signIn);
      await page.waitForURL(new RegExp(`/${language}$`));
      await openInApp(page, `/${language}/account/profile`);
      const build = page.getByTestId('download-shapelab').getByRole('link').first();
      await scrollTo(build);
      const recorded = page.waitForResponse((response) => response.url().endsWith('/api/users/downloadedShapelab') && response.request().method() === 'POST', {
        timeout: 10_000,
      });
      await build.click();
      const response = await recorded;
      expect(response.status()).toBe(200);
      await expect(response.json()).resolves.toEqual({ recorded: true });
      expect(errors).toEqual([]);
    });
  });
}

describe('profile on a phone', () => {
  it('nothing on screen moves while the profile loads: its parts come in below what is shown (no layout shift)', async () => {
    const user = await createVerifiedUser();
    const { page, errors } = await newPage(browser);
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, '/login', user.email, user.password, /^Sign in$/);
    await page.waitForURL((address) => address.pathname === '/');
    // The browser's own record of each layout shift from the start of the load (a shift right after input is no shift).
    await page.addInitScript(() => {
      const shifts: number[] = [];
      (window as unknown as { shifts: number[] }).shifts = shifts;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
          if (!entry.hadRecentInput) shifts.push(entry.value);
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto(url('/account/profile'));
    // The details form's fields come in parts, and the sections after the last of them (DetailsForm.tsx).
    // Waited for where it is, not scrolled to: a shift right after the wheel would not count.
    await page.getByRole('heading', { level: 2, name: 'Delete account' }).waitFor({ state: 'attached', timeout: 20_000 });
    await expect(page.evaluate(() => (window as unknown as { shifts: number[] }).shifts)).resolves.toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe('legal documents', () => {
  it('terms and privacy policy show their document in the page language; the EULA link leads to its section', async () => {
    const { page, errors } = await newPage(browser);
    await page.goto(url('/terms#eula'));
    await shown(page.getByRole('heading', { level: 2, name: 'End-user licence agreement (EULA)' }));
    await expect(page.locator('#eula').isVisible()).resolves.toBe(true);
    await page.goto(url('/de/privacy-policy'));
    await shown(page.getByRole('heading', { level: 1, name: 'Datenschutzerklärung' }));
    await shown(page.getByRole('heading', { level: 2, name: 'Deine Rechte' }));
    await page.goto(url('/de/terms'));
    await shown(page.getByRole('heading', { level: 2, name: 'Endbenutzer-Lizenzvereinbarung (EULA)' }));
    expect(errors).toEqual([]);
  });
});
