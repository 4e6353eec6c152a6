import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifiedUser, launchBrowser, newPage, openInApp, shown, signIn, url } from './browser.js';

/**
 * Issue 44 item 10: a strength hint under every new-password field, in the page's language, that says
 * "too common" before the form is sent; zxcvbn and its dictionaries load once typing starts, not before.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The built files of zxcvbn and its dictionaries (the build's manifest names them by package). */
function zxcvbnFiles(): string[] {
  const manifest = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../dist/.vite/manifest.json'), 'utf8')) as Record<string, { file: string }>;
  const files = Object.entries(manifest)
    .filter(([source]) => source.includes('node_modules/@zxcvbn-ts/'))
    .map(([, chunk]) => chunk.file);
  expect(files.length).toBeGreaterThanOrEqual(3);
  return files;
}

const TEXTS = {
  en: {
    next: 'Next',
    tooCommon: 'This password is too common and easy to guess. Please choose another one.',
    strength: /^Password strength: (good|strong)/,
    weak: 'Password strength: weak',
    similar: 'This is similar to a commonly used password.',
    step2: 'Coupon and agreements',
    signIn: /^Sign in$/,
    change: 'Change password',
  },
  de: {
    next: 'Weiter',
    tooCommon: 'Dieses Passwort ist zu verbreitet und leicht zu erraten. Bitte wähle ein anderes.',
    strength: /^Passwortstärke: (gut|stark)/,
    weak: 'Passwortstärke: schwach',
    similar: 'Dies weist Ähnlichkeit zu anderen oft verwendeten Passwörtern auf.',
    step2: 'Gutschein und Zustimmung',
    signIn: /^Anmelden$/,
    change: 'Passwort ändern',
  },
} as const;

for (const language of ['en', 'de'] as const) {
  const texts = TEXTS[language];

  describe(`the password strength hint in Chromium (${language})`, () => {
    it('registration: zxcvbn loads once typing starts; the hint shows under the field; a common password is refused with the text', async () => {
      const { page, errors } = await newPage(browser);
      const requested: string[] = [];
      page.on('request', (request) => requested.push(new URL(request.url()).pathname));
      const heavy = zxcvbnFiles();
      const loadedHeavy = () => requested.filter((file) => heavy.some((name) => file.endsWith(name)));

      await page.goto(url(`/${language}/registration`));
      await shown(page.locator('#password'));
      await page.locator('#first-name').fill('Ada');
      await page.locator('#last-name').fill('Lovelace');
      await page.locator('#email').fill(`strength-${language}-${Date.now()}@example.com`);
      expect(loadedHeavy()).toEqual([]);

      const helper = page.locator('#password-helper');
      await page.locator('#password').fill('Password1');
      await shown(helper.getByText(texts.tooCommon));
      expect(loadedHeavy().length).toBeGreaterThan(0);
      // Sent anyway: the first step stops with the same words under the field, before anything reaches the server.
      await page.getByRole('button', { name: texts.next, exact: true }).click();
      await shown(helper.getByText(texts.tooCommon));
      await expect(page.locator('#password').getAttribute('aria-invalid')).resolves.toBe('true');
      expect(requested.filter((file) => file === '/api/users')).toEqual([]);

      // Weak but not on the list: the strength in a word, and zxcvbn's advice in the page's language.
      await page.locator('#password').fill('Passwort123');
      await shown(helper.getByText(texts.weak));
      await shown(helper.getByText(texts.similar, { exact: false }));

      await page.locator('#password').fill('Zebra crossing 24');
      await shown(helper.getByText(texts.strength));
      await page.getByRole('button', { name: texts.next, exact: true }).click();
      await shown(page.getByRole('form', { name: texts.step2 }));
      expect(errors).toEqual([]);
    });
  });
}

describe('the password strength hint on the profile (en)', () => {
  it('shows under the new password and refuses a common one before it is sent', async () => {
    const texts = TEXTS.en;
    const user = await createVerifiedUser('en');
    const { page, errors } = await newPage(browser);
    await signIn(page, '/en/login', user.email, user.password, texts.signIn);
    await page.waitForURL(/\/en$/);
    await openInApp(page, '/en/account/profile');
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await page.getByLabel('Current password').fill(user.password);
    await page.locator('#new-password').fill('qwerty123');
    const helper = page.locator('#new-password-helper-text');
    await shown(helper.getByText(texts.tooCommon));
    await page.getByLabel('Repeat the new password').fill('qwerty123');
    await page.getByRole('button', { name: texts.change }).click();
    await shown(helper.getByText(texts.tooCommon));
    expect(requested.filter((file) => file === '/api/users/password')).toEqual([]);
    await page.locator('#new-password').fill('Zebra crossing 24');
    await shown(helper.getByText(texts.strength));
    expect(errors).toEqual([]);
  });
});
