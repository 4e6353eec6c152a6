import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../../server/db/index.js';
import { launchBrowser, newPage, shown, url } from './browser.js';

/**
 * Issue "Accounts", done means: register -> code from the outbox -> confirm -> signed in; sign out; sign
 * in with remember me; past the access token's expiry (the server's test clock) a reload stays signed in
 * through the offline token, without remember me it goes to login; signing out in one tab signs out the
 * other. In en and de.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const PASSWORD = 'sculpt4ever 2026';
const ACCESS_TOKEN_LIFETIME_SECONDS = 3600;

async function outbox(email: string): Promise<{ subject: string; text: string }[]> {
  const response = await fetch(url(`/api/dev/outbox?to=${encodeURIComponent(email)}`));
  return (await response.json()) as { subject: string; text: string }[];
}

async function advanceServerClock(seconds: number): Promise<void> {
  const response = await fetch(url('/api/dev/clock'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ advanceSeconds: seconds }),
  });
  expect(response.status).toBe(200);
}

/** A coupon the registration can redeem, created as the seeded admin. */
async function createCoupon(code: string): Promise<void> {
  const login = await fetch(url('/api/auth/admin-login'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: inject('adminEmail'), password: inject('adminPassword') }),
  });
  const { access_token } = (await login.json()) as { access_token: string };
  const response = await fetch(url('/api/coupons'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${access_token}` },
    body: JSON.stringify({ code, grant: 'access', days: 30 }),
  });
  expect(response.status, await response.text()).toBe(200);
}

async function signupSource(email: string): Promise<string | null | undefined> {
  const db = openDatabase({ dialect: 'sqlite', file: inject('databaseFile') });
  try {
    const row = await db.kysely.selectFrom('users').select(['signup_source', 'coupon_code', 'newsletter']).where('email', '=', email).executeTakeFirst();
    return row ? `${row.signup_source}|${row.coupon_code}|${row.newsletter}` : undefined;
  } finally {
    await db.destroy();
  }
}

async function signOut(page: Page, texts: { userMenu: string; signOut: string }) {
  await page.getByRole('button', { name: texts.userMenu }).click();
  await page.getByRole('menuitem', { name: texts.signOut }).click();
}

async function signInWith(page: Page, language: string, email: string, rememberMe: boolean, texts: { signIn: string; remember: string }) {
  await page.goto(url(`/${language}/login`));
  await page.locator('#email').fill(email);
  await page.locator('#password').fill(PASSWORD);
  if (rememberMe) await page.getByLabel(texts.remember).check();
  await page.getByRole('button', { name: texts.signIn, exact: true }).click();
}

const TEXTS = {
  en: {
    next: 'Next',
    create: 'Create account',
    emailRequired: 'Email is required.',
    invalidEmail: 'Invalid email.',
    firstNameRequired: 'First name is required.',
    lastNameRequired: 'Last name is required.',
    privacy: 'You must accept the Privacy Policy',
    accept: 'I accept the',
    newsletter: 'Send me news about Shapelab',
    coupon: 'Coupon code',
    couponInvalid: 'This coupon code is not valid.',
    confirm: 'Confirm',
    choosePlan: 'Choose a plan',
    profile: 'Profile',
    home: 'Account overview',
    userMenu: 'Open account menu',
    signOut: 'Sign out',
    signIn: 'Sign in',
    remember: 'Remember me',
    loginTitle: 'Sign in to Shapelab',
    already: 'An account with this email address already exists.',
  },
  de: {
    next: 'Weiter',
    create: 'Konto erstellen',
    emailRequired: 'E-Mail ist erforderlich.',
    invalidEmail: 'Ungültige E-Mail.',
    firstNameRequired: 'Vorname ist erforderlich.',
    lastNameRequired: 'Nachname ist erforderlich.',
    privacy: 'Um ein Konto zu erstellen, musst du die Datenschutzerklärung',
    accept: 'Ich akzeptiere die',
    newsletter: 'Schickt mir Neuigkeiten zu Shapelab',
    coupon: 'Gutscheincode',
    couponInvalid: 'Dieser Gutscheincode ist ungültig.',
    confirm: 'Bestätigen',
    choosePlan: 'Tarif wählen',
    profile: 'Profil',
    home: 'Kontoübersicht',
    userMenu: 'Kontomenü öffnen',
    signOut: 'Abmelden',
    signIn: 'Anmelden',
    remember: 'Angemeldet bleiben',
    loginTitle: 'Bei Shapelab anmelden',
    already: 'Zu dieser E-Mail-Adresse gibt es bereits ein Konto.',
  },
} as const;

for (const language of ['en', 'de'] as const) {
  const texts = TEXTS[language];

  describe(`accounts end to end in Chromium (${language})`, () => {
    const email = `e2e-reg-${language}-${randomBytes(4).toString('hex')}@example.com`;
    const coupon = `BOOTH-${language}-${randomBytes(3).toString('hex')}`.toUpperCase();

    it('registers in steps with the validation texts, confirms the mailed code and is signed in', async () => {
      const { page, errors } = await newPage(browser);
      await page.goto(url(`/${language}/registration`));
      await shown(page.getByTestId('registration-step').getByText(language === 'en' ? 'Step 1/3' : 'Schritt 1/3'));
      await page.getByRole('button', { name: texts.next, exact: true }).click();
      await shown(page.getByText(texts.emailRequired));
      await shown(page.getByText(texts.firstNameRequired));
      await shown(page.getByText(texts.lastNameRequired));
      await page.locator('#first-name').fill('Ada');
      await page.locator('#last-name').fill('Lovelace');
      await page.locator('#email').fill('not-an-address');
      await page.locator('#password').fill(PASSWORD);
      await page.getByRole('button', { name: texts.next, exact: true }).click();
      await shown(page.getByText(texts.invalidEmail));
      await page.locator('#email').fill(email);
      await page.getByRole('button', { name: texts.next, exact: true }).click();

      await shown(page.getByTestId('registration-step').getByText(language === 'en' ? 'Step 2/3' : 'Schritt 2/3'));
      await page.getByLabel(texts.coupon).fill('NO-SUCH-COUPON');
      await page.getByLabel(texts.newsletter).check();
      await page.getByRole('button', { name: texts.create }).click();
      await shown(page.getByText(texts.privacy));
      expect(await outbox(email)).toHaveLength(0);
      await page.getByLabel(texts.accept).check();
      // The coupon is checked before the account exists: an unknown one keeps the visitor on this step.
      await page.getByRole('button', { name: texts.create }).click();
      await shown(page.getByRole('alert').getByText(texts.couponInvalid));
      expect(await outbox(email)).toHaveLength(0);
      await createCoupon(coupon);
      await page.getByLabel(texts.coupon).fill(coupon);
      await page.getByRole('button', { name: texts.create }).click();

      await page.waitForURL(new RegExp(`/${language}/users/confirm\\?email=`));
      await shown(page.getByTestId('registration-step').getByText(language === 'en' ? 'Step 3/3' : 'Schritt 3/3'));
      await expect.poll(async () => (await outbox(email)).length).toBe(1);
      const code = /\b(\d{6})\b/.exec((await outbox(email))[0]?.text ?? '')?.[1] ?? '';
      expect(code).toMatch(/^\d{6}$/);
      for (const [index, digit] of [...code].entries()) await page.locator(`[aria-label$=" ${index + 1} ${language === 'en' ? 'of' : 'von'} 6"]`).fill(digit);
      await page.getByRole('button', { name: texts.confirm, exact: true }).click();
      await page.waitForURL(new RegExp(`/${language}/account/subscription/choose-plan$`));
      await shown(page.getByRole('heading', { level: 1, name: texts.choosePlan }));
      expect(await signupSource(email)).toBe(`web|${coupon}|1`);

      await signOut(page, texts);
      await page.waitForURL(new RegExp(`/${language}/login$`));
      await shown(page.getByRole('heading', { level: 1, name: texts.loginTitle }));
      expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
      expect(errors).toEqual([]);
    });

    it('a second registration with the same address is refused and offers sign-in', async () => {
      const { page } = await newPage(browser);
      await page.goto(url(`/${language}/registration`));
      await page.locator('#first-name').fill('Ada');
      await page.locator('#last-name').fill('Again');
      await page.locator('#email').fill(email);
      await page.locator('#password').fill(PASSWORD);
      await page.getByRole('button', { name: texts.next, exact: true }).click();
      await page.getByLabel(texts.accept).check();
      await page.getByRole('button', { name: texts.create }).click();
      await shown(page.getByRole('alert').getByText(texts.already, { exact: false }));
      // Back on the first step, with what was typed still there.
      await expect(page.locator('#email').inputValue()).resolves.toBe(email);
    });

    it('with remember me, a reload after the access token expired keeps the session through the offline token', async () => {
      const { page, errors } = await newPage(browser);
      await signInWith(page, language, email, true, texts);
      await page.waitForURL(new RegExp(`/${language}$`));
      await shown(page.getByRole('heading', { level: 1, name: texts.home }));
      const before = await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('offlineToken')]);
      expect(before[1]).not.toBeNull();

      await advanceServerClock(ACCESS_TOKEN_LIFETIME_SECONDS + 60);
      await page.reload();
      await shown(page.getByRole('heading', { level: 1, name: texts.home }));
      await shown(page.getByRole('button', { name: texts.userMenu }).getByText(email));
      const after = await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('offlineToken')]);
      // Renewed: a new access token, and the offline token rotated.
      expect(after[0]).not.toBe(before[0]);
      expect(after[1]).not.toBe(before[1]);
      expect(after[1]).not.toBeNull();
      expect(errors).toEqual([]);

      await signOut(page, texts);
      await page.waitForURL(new RegExp(`/${language}/login$`));
    });

    it('without remember me, a reload after the access token expired sends the user to login', async () => {
      const { page } = await newPage(browser);
      await signInWith(page, language, email, false, texts);
      await shown(page.getByRole('heading', { level: 1, name: texts.home }));
      expect(await page.evaluate(() => localStorage.getItem('offlineToken'))).toBeNull();

      await advanceServerClock(ACCESS_TOKEN_LIFETIME_SECONDS + 60);
      await page.reload();
      await page.waitForURL(new RegExp(`/${language}/login`));
      await shown(page.getByRole('heading', { level: 1, name: texts.loginTitle }));
      expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    });

    it('signing out in one tab signs out the other tab', async () => {
      const { page: first, context } = await newPage(browser);
      await signInWith(first, language, email, true, texts);
      await shown(first.getByRole('heading', { level: 1, name: texts.home }));
      const { page: second } = await newPage(browser, context);
      await second.goto(url(`/${language}/account/profile`));
      await shown(second.getByRole('heading', { level: 1, name: texts.profile }));

      await signOut(first, texts);
      await second.waitForURL(new RegExp(`/${language}/login`));
      await shown(second.getByRole('heading', { level: 1, name: texts.loginTitle }));
      // The offline token is revoked on the server too: it cannot renew anything any more.
    });

    it('a sign-out the server answers slowly still ends on the sign-in page', async () => {
      const { page, errors } = await newPage(browser);
      await signInWith(page, language, email, false, texts);
      await shown(page.getByRole('heading', { level: 1, name: texts.home }));
      // The menu closes (and its Sign out item unmounts) long before this answer comes.
      await page.route('**/api/auth/logout', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        await route.continue();
      });
      const answered = page.waitForResponse((response) => response.url().endsWith('/api/auth/logout'));
      await signOut(page, texts);
      await answered;
      // The answer itself sends the user on (Refine's logout), not a later check of the session, which took
      // some 7 s more when the sign-out's own redirect was lost with its unmounted menu item.
      await page.waitForURL(new RegExp(`/${language}/login$`), { timeout: 4_000 });
      await shown(page.getByRole('heading', { level: 1, name: texts.loginTitle }));
      expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
      expect(errors).toEqual([]);
    });
  });
}

describe('registration for SIGGRAPH 2023 visitors', () => {
  it('uses the same form and records the sign-up source', async () => {
    const email = `e2e-siggraph-${randomBytes(4).toString('hex')}@example.com`;
    const { page } = await newPage(browser);
    await page.goto(url('/registration/siggraph2023'));
    await shown(page.getByText('Welcome, SIGGRAPH 2023 visitor!'));
    await page.locator('#first-name').fill('Ivan');
    await page.locator('#last-name').fill('Sutherland');
    await page.locator('#email').fill(email);
    await page.locator('#password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await page.getByLabel('I accept the').check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/users\/confirm\?email=/);
    expect(await signupSource(email)).toBe('siggraph2023|null|0');
  });
});
