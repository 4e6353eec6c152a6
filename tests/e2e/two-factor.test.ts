import { readFileSync } from 'node:fs';
import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifiedUser, launchBrowser, newPage, openInApp, shown, url } from './browser.js';

/**
 * Issue 44 in the browser, on a server of its own with STAFF_TWO_FACTOR=required (vitest.config.ts): its
 * clock is moved by no other file, so the authenticator codes computed here from the server's time are the
 * ones it expects. A user sets up an authenticator app from the key the security page shows, sees the ten
 * recovery codes once, and signs in with a code as the second step (en, de); a recovery code signs in once;
 * a staff member without a second factor is held on the security page until one is set up; support resets
 * a user's second factor from the user page, the user signs in with the password alone and is mailed.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const TEXTS = {
  en: {
    signIn: 'Sign in',
    adminSignIn: 'Sign in as administrator',
    userMenu: 'Open account menu',
    signOut: 'Sign out',
    home: 'Account overview',
    security: 'Security and sessions',
    setUp: 'Set up an authenticator app',
    turnOn: 'Turn on',
    appOn: 'Two-step sign-in is on: an authenticator app is set up.',
    codesLeft: (count: number) => `${count} recovery codes left.`,
    copyCodes: 'Copy the codes',
    downloadCodes: 'Download as a text file',
    savedCodes: 'I have saved them',
    verify: 'Verify',
    useRecovery: 'Use a recovery code',
    wrongCode: 'That code is not right. Enter the current code from your authenticator app, or one of your recovery codes.',
    enrolmentTitle: 'Set up two-step sign-in to continue',
    enrolmentDone: 'Two-step sign-in is on. Keep your recovery codes safe, then continue.',
    toAdminArea: 'Continue to the admin area',
    users: 'Users',
    twoFactorFact: 'Two-step sign-in',
    twoFactorOn: 'On (an authenticator app or a passkey)',
    twoFactorOff: 'Off',
    reset: 'Reset second factor',
    resetTitle: (email: string) => `Reset the second factor of ${email}?`,
    resetDone: (email: string) => `The second factor of ${email} was reset.`,
    resetMail: 'Shapelab support removed the second factor of your account',
  },
  de: {
    signIn: 'Anmelden',
    adminSignIn: 'Als Administrator anmelden',
    userMenu: 'Kontomenü öffnen',
    signOut: 'Abmelden',
    home: 'Kontoübersicht',
    security: 'Sicherheit und Sitzungen',
    setUp: 'Authenticator-App einrichten',
    turnOn: 'Aktivieren',
    appOn: 'Die Anmeldung in zwei Schritten ist aktiv: Eine Authenticator-App ist eingerichtet.',
    codesLeft: (count: number) => `Noch ${count} Wiederherstellungscodes übrig.`,
    copyCodes: 'Codes kopieren',
    downloadCodes: 'Als Textdatei herunterladen',
    savedCodes: 'Ich habe sie gespeichert',
    verify: 'Bestätigen',
    useRecovery: 'Einen Wiederherstellungscode verwenden',
    wrongCode: 'Der Code stimmt nicht. Gib den aktuellen Code aus deiner Authenticator-App oder einen deiner Wiederherstellungscodes ein.',
    enrolmentTitle: 'Richte die Anmeldung in zwei Schritten ein, um fortzufahren',
    enrolmentDone: 'Die Anmeldung in zwei Schritten ist aktiv. Bewahre deine Wiederherstellungscodes sicher auf und fahre dann fort.',
    toAdminArea: 'Weiter zum Admin-Bereich',
    users: 'Benutzer',
    twoFactorFact: 'Anmeldung in zwei Schritten',
    twoFactorOn: 'Aktiv (Authenticator-App oder Passkey)',
    twoFactorOff: 'Aus',
    reset: 'Zweiten Faktor zurücksetzen',
    resetTitle: (email: string) => `Zweiten Faktor von ${email} zurücksetzen?`,
    resetDone: (email: string) => `Der zweite Faktor von ${email} wurde zurückgesetzt.`,
    resetMail: 'Der Shapelab-Support hat den zweiten Faktor deines Kontos entfernt',
  },
} as const;
type Language = keyof typeof TEXTS;
type Texts = (typeof TEXTS)[Language];

async function api<T>(path: string, options: { method?: string; token?: string; body?: unknown } = {}): Promise<{ status: number; body: T }> {
  const response = await fetch(url(path), {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers: { 'Content-Type': 'application/json', ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}) },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

const STEP_MS = 30_000;

/** The server's time: its clock may be ahead of this machine's (POST /api/dev/clock moving it by nothing reads it). */
async function serverNow(): Promise<number> {
  const { status, body } = await api<{ now: string }>('/api/dev/clock', { body: { advanceSeconds: 0 } });
  expect(status).toBe(200);
  return Date.parse(body.now);
}

/**
 * An authenticator app holding one secret, as a phone would: each code it gives is one the server has not
 * taken yet. The server takes a time step's code once, and after it only a later step's, so a second code
 * within the same 30 seconds is the next step's (accepted one step early); a third waits for the step.
 */
class AuthenticatorApp {
  private lastStep = Number.NEGATIVE_INFINITY;

  constructor(private readonly secret: string) {}

  async code(): Promise<string> {
    let now = await serverNow();
    const step = Math.max(Math.floor(now / STEP_MS), this.lastStep + 1);
    while (step > Math.floor(now / STEP_MS) + 1) {
      await new Promise((resolve) => setTimeout(resolve, STEP_MS - (now % STEP_MS) + 200));
      now = await serverNow();
    }
    this.lastStep = step;
    return this.codeAt(step);
  }

  /** A code of this secret the server takes at no time near now (ten minutes ago). */
  async staleCode(): Promise<string> {
    return this.codeAt(Math.floor((await serverNow()) / STEP_MS) - 20);
  }

  private codeAt(step: number): string {
    return TOTP.generate({ secret: Secret.fromBase32(this.secret), algorithm: 'SHA1', digits: 6, period: STEP_MS / 1000, timestamp: step * STEP_MS });
  }
}

/** An account's authenticator app set up through the API (as the security page does): the app and its recovery codes. */
async function withAuthenticatorApp(account: { email: string; password: string }, admin = false): Promise<{ app: AuthenticatorApp; recoveryCodes: string[] }> {
  const signedIn = await api<{ access_token: string }>(admin ? '/api/auth/admin-login' : '/api/auth/login', { body: { email: account.email, password: account.password } });
  expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
  const token = signedIn.body.access_token;
  const setup = await api<{ secret: string }>('/api/users/me/two-factor/totp', { token, body: {} });
  expect(setup.status, JSON.stringify(setup.body)).toBe(200);
  const app = new AuthenticatorApp(setup.body.secret);
  const confirmed = await api<{ recoveryCodes: string[] }>('/api/users/me/two-factor/totp/confirm', { token, body: { code: await app.code() } });
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  return { app, recoveryCodes: confirmed.body.recoveryCodes };
}

async function fillSignIn(page: Page, account: { email: string; password: string }, submit: string) {
  await page.locator('#email').fill(account.email);
  await page.locator('#password').fill(account.password);
  await page.getByRole('button', { name: submit, exact: true }).click();
}

async function signOutWithMenu(page: Page, texts: Texts) {
  await page.getByRole('button', { name: texts.userMenu }).click();
  await page.getByRole('menuitem', { name: texts.signOut }).click();
}

/** The second step's code form: the code typed and verified. */
async function enterCode(page: Page, code: string, texts: Texts) {
  const step = page.getByTestId('two-factor-step');
  await step.locator('#two-factor-code').fill(code);
  await step.getByRole('button', { name: texts.verify, exact: true }).click();
}

/** The tab holds a session of `email`: its menu names them, and its token answers for them at the API. */
async function expectSignedInAs(page: Page, email: string, texts: Texts) {
  await shown(page.getByRole('button', { name: texts.userMenu }).getByText(email));
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const me = await api<{ email: string }>('/api/users/me', { token: token ?? '' });
  expect(me.status).toBe(200);
  expect(me.body.email).toBe(email);
}

async function expectNoSession(page: Page) {
  expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('offlineToken')])).toEqual([null, null]);
}

/**
 * Sets up the authenticator app on the security page, from the key shown as text: the secret, the ten
 * recovery codes shown (checked: ten, copy and download offered, the file holds them) and then hidden.
 */
async function setUpAppOnPage(page: Page, texts: Texts): Promise<{ app: AuthenticatorApp; recoveryCodes: string[] }> {
  await page.getByRole('button', { name: texts.setUp }).click();
  const secretText = page.getByTestId('totp-secret');
  await shown(secretText);
  const app = new AuthenticatorApp(((await secretText.textContent()) ?? '').replace(/\s+/g, ''));
  await page.locator('#totp-confirm-code').fill(await app.code());
  await page.getByRole('button', { name: texts.turnOn, exact: true }).click();

  const codesBox = page.getByTestId('recovery-codes');
  await shown(codesBox);
  const recoveryCodes = (await codesBox.locator('li').allInnerTexts()).map((code) => code.trim());
  expect(recoveryCodes).toHaveLength(10);
  expect(new Set(recoveryCodes).size).toBe(10);
  await shown(codesBox.getByRole('button', { name: texts.copyCodes }));
  const [download] = await Promise.all([page.waitForEvent('download'), codesBox.getByRole('button', { name: texts.downloadCodes }).click()]);
  expect(download.suggestedFilename()).toMatch(/^shapelab-recovery-codes-\d{4}-\d{2}-\d{2}\.txt$/);
  const saved = readFileSync((await download.path()) as string, 'utf8');
  for (const code of recoveryCodes) expect(saved).toContain(code);
  await shown(page.getByTestId('two-step-state').getByText(texts.appOn));
  await shown(page.getByTestId('recovery-codes-left').getByText(texts.codesLeft(10)));
  // Shown once: "I have saved them" hides them for good.
  await codesBox.getByRole('button', { name: texts.savedCodes }).click();
  await expect.poll(() => codesBox.count()).toBe(0);
  return { app, recoveryCodes };
}

for (const language of ['en', 'de'] as const) {
  const texts = TEXTS[language];
  it(`sets up an authenticator app from the key on the security page, sees the recovery codes once, and signs in with a code as the second step (${language})`, async () => {
    const user = await createVerifiedUser(language);
    const { page, errors } = await newPage(browser);
    await page.goto(url(`/${language}/login`));
    await fillSignIn(page, user, texts.signIn);
    await expectSignedInAs(page, user.email, texts);
    await openInApp(page, `/${language}/account/security`);
    const { app } = await setUpAppOnPage(page, texts);

    await signOutWithMenu(page, texts);
    await page.waitForURL(url(`/${language}/login`));
    await fillSignIn(page, user, texts.signIn);
    // The password is right, yet no session starts before the second step is answered.
    await shown(page.getByTestId('two-factor-step'));
    await expectNoSession(page);
    // A code the app gave long ago is refused, and the step asks again.
    await enterCode(page, await app.staleCode(), texts);
    await shown(page.getByRole('alert').getByText(texts.wrongCode));
    await expectNoSession(page);
    await enterCode(page, await app.code(), texts);
    await page.waitForURL(url(`/${language}`));
    await shown(page.getByRole('heading', { level: 1, name: texts.home }));
    await expectSignedInAs(page, user.email, texts);

    // The codes were shown once: the security page now says only how many are left.
    await openInApp(page, `/${language}/account/security`);
    await shown(page.getByTestId('recovery-codes-left').getByText(texts.codesLeft(10)));
    expect(await page.getByTestId('recovery-codes').count()).toBe(0);
    expect(errors).toEqual([]);
  });
}

it('signs in with a recovery code once: the same code a second time is refused with the message', async () => {
  const texts = TEXTS.en;
  const user = await createVerifiedUser('en');
  const { recoveryCodes } = await withAuthenticatorApp(user);
  const [first, second] = recoveryCodes;
  const { page, errors } = await newPage(browser);

  const answerWithRecoveryCode = async (code: string | undefined) => {
    await fillSignIn(page, user, texts.signIn);
    const step = page.getByTestId('two-factor-step');
    await step.getByRole('button', { name: texts.useRecovery }).click();
    await step.locator('#recovery-code').fill(code ?? '');
    await step.getByRole('button', { name: texts.verify, exact: true }).click();
  };

  await page.goto(url('/en/login'));
  await answerWithRecoveryCode(first);
  await page.waitForURL(url('/en'));
  await expectSignedInAs(page, user.email, texts);

  await signOutWithMenu(page, texts);
  await page.waitForURL(url('/en/login'));
  await answerWithRecoveryCode(first);
  await shown(page.getByRole('alert').getByText(texts.wrongCode));
  await expectNoSession(page);
  expect(page.url()).toBe(url('/en/login'));
  // Another of the codes still works: the refusal was of the used one.
  await page.getByTestId('two-factor-step').locator('#recovery-code').fill(second ?? '');
  await page.getByTestId('two-factor-step').getByRole('button', { name: texts.verify, exact: true }).click();
  await page.waitForURL(url('/en'));
  await expectSignedInAs(page, user.email, texts);
  expect(errors).toEqual([]);
});

describe('staff (STAFF_TWO_FACTOR=required)', () => {
  it('a staff member without a second factor is sent to the security page, reaches nothing else until one is set up, then the admin area', async () => {
    const texts = TEXTS.en;
    const staff = await createVerifiedUser('en', { admin: true });
    const { page, errors } = await newPage(browser);
    await page.goto(url('/en/admin/login'));
    await fillSignIn(page, staff, texts.adminSignIn);
    await page.waitForURL(url('/en/account/security'));
    await shown(page.getByTestId('enrolment-required').getByText(texts.enrolmentTitle));

    // The admin area: its screen sends back here, its API refuses.
    await openInApp(page, '/en/admin/users');
    await page.waitForURL(url('/en/account/security'));
    await shown(page.getByTestId('enrolment-required'));
    const token = (await page.evaluate(() => localStorage.getItem('token'))) ?? '';
    const refused = await api<{ messageKey: string }>('/api/users', { token });
    expect(refused.status).toBe(403);
    expect(refused.body.messageKey).toBe('TWO_FACTOR_ENROLMENT_REQUIRED');

    await setUpAppOnPage(page, texts);
    await shown(page.getByTestId('enrolment-done').getByText(texts.enrolmentDone));
    await page.getByRole('link', { name: texts.toAdminArea }).click();
    await page.waitForURL(url('/en/admin/users'));
    await shown(page.getByRole('heading', { level: 1, name: texts.users }));
    expect((await api('/api/users', { token })).status).toBe(200);
    expect(errors).toEqual([]);
  });

  it('support resets a user’s second factor from the user page after a confirmation; the user signs in with the password alone and is mailed (de)', async () => {
    const texts = TEXTS.de;
    const [admin, user] = [await createVerifiedUser('de', { admin: true }), await createVerifiedUser('de')];
    const [{ app: adminApp }] = await Promise.all([withAuthenticatorApp(admin, true), withAuthenticatorApp(user)]);
    const before = await api<{ twoFactorRequired?: boolean }>('/api/auth/login', { body: { email: user.email, password: user.password } });
    expect(before.body.twoFactorRequired).toBe(true);

    const { page, errors } = await newPage(browser);
    await page.goto(url('/de/admin/login'));
    await fillSignIn(page, admin, texts.adminSignIn);
    await enterCode(page, await adminApp.code(), texts);
    await page.waitForURL(url('/de/admin/users'));
    await openInApp(page, `/de/admin/users/${user.id}`);
    const profile = page.getByTestId('user-profile');
    const twoFactor = profile.locator('dt', { hasText: texts.twoFactorFact }).locator('xpath=following-sibling::dd[1]');
    await shown(twoFactor.getByText(texts.twoFactorOn));
    await profile.getByRole('button', { name: texts.reset }).click();
    const dialog = page.getByRole('dialog');
    await shown(dialog.getByText(texts.resetTitle(user.email)));
    await dialog.getByRole('button', { name: texts.reset }).click();
    await shown(page.getByText(texts.resetDone(user.email)));
    await expect.poll(() => twoFactor.innerText()).toBe(texts.twoFactorOff);
    expect(await profile.getByRole('button', { name: texts.reset }).count()).toBe(0);

    const after = await api<{ access_token?: string; twoFactorRequired?: boolean }>('/api/auth/login', { body: { email: user.email, password: user.password } });
    expect(after.status).toBe(200);
    expect(after.body.twoFactorRequired).toBeUndefined();
    expect(after.body.access_token).toEqual(expect.any(String));
    const mails = await api<{ subject: string }[]>(`/api/dev/outbox?to=${encodeURIComponent(user.email)}`);
    expect(mails.body.map((mail) => mail.subject)).toContain(texts.resetMail);
    expect(errors).toEqual([]);
  });
});
