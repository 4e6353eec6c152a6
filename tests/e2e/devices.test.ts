import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CARD_FIELDS, createVerifiedUser, launchBrowser, newPage, openInApp, payWith, shown, signIn, url } from './browser.js';
import { runDesktop } from './desktop.js';

/**
 * Devices and coupons in Chromium (issue "Licences, devices, coupons"): a perpetual licence bought on the
 * Paddle stand-in gives two seats; two computers activated through the desktop client show in the device
 * manager and a third is refused; releasing one (confirmed) frees its seat for the third, which appears
 * without a reload (the event stream). A coupon redeemed on the profile says what it gave, and a second
 * redemption is refused with the translated error.
 */
let browser: Browser;
let stateDir: string;
beforeAll(async () => {
  browser = await launchBrowser();
  stateDir = mkdtempSync(path.join(os.tmpdir(), 'e2e-desktop-'));
});
afterAll(async () => {
  await browser?.close();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

/** The desktop client on this file's simulated computers. */
const desktop = (computer: string, args: string[]) => runDesktop(stateDir, computer, args);

/** The API's error body the client prints on its last line of stderr when a call is refused. */
function errorBody(stderr: string): { messageKey: string } {
  const last = stderr.trim().split('\n').pop() ?? '';
  return JSON.parse(last) as { messageKey: string };
}

async function activate(computer: string, user: { email: string; password: string }, computerId: string, name: string) {
  const login = await desktop(computer, ['login', '--email', user.email, '--password', user.password]);
  expect(login.code, login.stderr).toBe(0);
  return desktop(computer, ['activate', '--computer-id', computerId, '--name', name]);
}

async function adminToken(): Promise<string> {
  const response = await fetch(url('/api/auth/admin-login'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: inject('adminEmail'), password: inject('adminPassword') }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

async function createCoupon(body: Record<string, unknown>): Promise<void> {
  const response = await fetch(url('/api/coupons'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${await adminToken()}` },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.text()).toBe(200);
}

const TEXTS = {
  en: {
    signIn: /^Sign in$/,
    onwards: ['See your licences', 'Back to releases'],
    title: 'Device manager',
    usage: (used: number, limit: number) => `${used} of ${limit} seats in use`,
    release: (name: string) => `Release ${name}`,
    confirmRelease: 'Release device',
    released: (name: string) => `${name} is released.`,
    coupon: 'Coupon code',
    redeem: 'Redeem',
    licenceAdded: 'Shapelab 2024 licence added to your account.',
    alreadyActivated: 'You have already activated this coupon.',
  },
  de: {
    signIn: /^Anmelden$/,
    onwards: ['Zu deinen Lizenzen', 'Zurück zu den Versionen'],
    title: 'Geräteverwaltung',
    usage: (used: number, limit: number) => `${used} von ${limit} Plätzen belegt`,
    release: (name: string) => `${name} freigeben`,
    confirmRelease: 'Gerät freigeben',
    released: (name: string) => `${name} ist freigegeben.`,
    coupon: 'Gutscheincode',
    redeem: 'Einlösen',
    licenceAdded: 'Shapelab-2024-Lizenz zu deinem Konto hinzugefügt.',
    alreadyActivated: 'Du hast diesen Gutschein bereits eingelöst.',
  },
} as const;

for (const language of ['en', 'de'] as const) {
  const texts = TEXTS[language];

  describe(`devices and coupons in Chromium (${language})`, () => {
    it('activates two computers, refuses a third, releases one after confirming, and the third takes its seat', async () => {
      const user = await createVerifiedUser(language);
      const { page, errors } = await newPage(browser);
      await signIn(page, `/${language}/login`, user.email, user.password, texts.signIn);
      await page.waitForURL(new RegExp(`/${language}(/account/subscription/choose-plan)?$`));

      await openInApp(page, `/${language}/checkout-new/perpetual`);
      await shown(page.frameLocator('iframe.paddle-frame').getByLabel(CARD_FIELDS.number));
      await payWith(page, '4242 4242 4242 4242');
      await page.waitForURL(new RegExp(`/${language}/perpetual/success$`));
      // Issue 48: onwards to the licences and back to the releases, not to the profile.
      await expect.poll(() => page.getByTestId('success-ways').getByRole('link').allTextContents()).toEqual(texts.onwards);
      await shown(page.getByTestId('granted'));

      const tag = randomBytes(3).toString('hex');
      const studio = { state: `studio-${tag}`, id: `WS-${tag}-STUDIO`, name: 'Studio PC' };
      const laptop = { state: `laptop-${tag}`, id: `WS-${tag}-LAPTOP`, name: 'Travel laptop' };
      const tower = { state: `tower-${tag}`, id: `WS-${tag}-TOWER`, name: 'Render tower' };
      for (const computer of [studio, laptop]) {
        const activated = await activate(computer.state, user, computer.id, computer.name);
        expect(activated.code, activated.stderr).toBe(0);
      }

      await openInApp(page, `/${language}/account/device-manager`);
      await shown(page.getByRole('heading', { level: 1, name: texts.title }));
      for (const computer of [studio, laptop]) {
        await shown(page.getByRole('cell', { name: computer.name, exact: true }));
        await shown(page.getByRole('cell', { name: computer.id, exact: true }));
      }
      await shown(page.getByTestId('seat-usage').getByText(texts.usage(2, 2)));

      const refused = await activate(tower.state, user, tower.id, tower.name);
      expect(refused.code).toBe(1);
      expect(errorBody(refused.stderr).messageKey).toBe('SEAT_LIMIT_REACHED');

      await page.getByRole('button', { name: texts.release(laptop.name) }).click();
      const dialog = page.getByRole('dialog');
      await shown(dialog.getByText(laptop.id, { exact: false }));
      await dialog.getByRole('button', { name: texts.confirmRelease }).click();
      await shown(page.getByRole('alert').getByText(texts.released(laptop.name), { exact: false }));
      await page.getByRole('cell', { name: laptop.name, exact: true }).waitFor({ state: 'detached' });
      await shown(page.getByTestId('seat-usage').getByText(texts.usage(1, 2)));

      // The page hears of the new seat through the event stream: no reload.
      const third = await desktop(tower.state, ['activate', '--computer-id', tower.id, '--name', tower.name]);
      expect(third.code, third.stderr).toBe(0);
      await shown(page.getByRole('cell', { name: tower.name, exact: true }));
      await shown(page.getByRole('cell', { name: tower.id, exact: true }));
      await shown(page.getByTestId('seat-usage').getByText(texts.usage(2, 2)));

      // A licence coupon from the profile: its grant is named, and the second licence brings two more seats.
      const code = `E2E-${language.toUpperCase()}-${tag}`;
      await createCoupon({ code, grant: 'licence', release: '2024' });
      await openInApp(page, `/${language}/account/profile`);
      await page.getByLabel(texts.coupon).fill(code);
      await page.getByRole('button', { name: texts.redeem }).click();
      await shown(page.getByRole('alert').getByText(texts.licenceAdded));
      await page.getByLabel(texts.coupon).fill(code);
      await page.getByRole('button', { name: texts.redeem }).click();
      await shown(page.getByRole('alert').getByText(texts.alreadyActivated));

      await openInApp(page, `/${language}/account/device-manager`);
      await shown(page.getByTestId('seat-usage').getByText(texts.usage(2, 4)));
      expect(errors).toEqual([]);
    }, 120_000);
  });
}
