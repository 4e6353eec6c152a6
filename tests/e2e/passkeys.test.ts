import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createVerifiedUser, launchBrowser, moveRouter, newPage, openInApp, shown, url } from './browser.js';

/**
 * Issue 44's passkeys in the browser, with Chromium's virtual authenticator (CDP's WebAuthn domain) against
 * the server at http://localhost:<port>, the host of its APP_URL and so its RP ID (scripts/portal-process.ts).
 * A passkey added on the security page signs in alone, from the button and from the browser's autofill, and
 * answers the second step of a password sign-in (en); at the admin door it signs staff in to the admin area,
 * and a session that ends there sends them back to that door (de).
 *
 * The authenticator answers at once while its user presence is on: /login asks the browser for a passkey for
 * its autofill as soon as it is idle, so presence is turned on just before the step that should use it.
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
    adminLoginTitle: 'Administrator sign in',
    withPasskey: 'Sign in with a passkey',
    useMyPasskey: 'Use my passkey',
    userMenu: 'Open account menu',
    signOut: 'Sign out',
    addPasskey: 'Add a passkey',
    createPasskey: 'Create the passkey',
    added: (name: string) => `The passkey ${name} was added.`,
    users: 'Users',
  },
  de: {
    signIn: 'Anmelden',
    adminSignIn: 'Als Administrator anmelden',
    adminLoginTitle: 'Anmeldung für Administratoren',
    withPasskey: 'Mit einem Passkey anmelden',
    useMyPasskey: 'Meinen Passkey verwenden',
    userMenu: 'Kontomenü öffnen',
    signOut: 'Abmelden',
    addPasskey: 'Passkey hinzufügen',
    createPasskey: 'Passkey erstellen',
    added: (name: string) => `Der Passkey ${name} wurde hinzugefügt.`,
    users: 'Benutzer',
  },
} as const;
type Texts = (typeof TEXTS)[keyof typeof TEXTS];

async function api<T>(path: string, options: { token?: string; body?: unknown } = {}): Promise<{ status: number; body: T }> {
  const response = await fetch(url(path), {
    method: options.body === undefined ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json', ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}) },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

/**
 * Chromium's virtual authenticator in this tab: a platform authenticator (internal, CTAP2) that keeps
 * discoverable credentials and verifies its user, its user presence off until `present(true)`. `remove`
 * takes it out of the tab again (the tab is handed to the file's next test).
 */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: false },
  });
  return {
    present: (enabled: boolean) => cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled }),
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
    async remove() {
      await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
      await cdp.send('WebAuthn.disable');
      await cdp.detach();
    },
  };
}

/**
 * The passkey sign-ins the tab makes: the ceremonies the server offered (`POST /api/auth/passkey/options`),
 * in order, and the ones answered (`POST /api/auth/passkey`). A ceremony offered after a click and then
 * answered is the click's, not the autofill's, which asks for its own as the page becomes idle.
 */
function watchPasskeySignIns(page: Page): { offered: string[]; answered: string[] } {
  const traffic = { offered: [] as string[], answered: [] as string[] };
  page.on('response', (response) => {
    if (response.request().method() !== 'POST' || !response.url().endsWith('/api/auth/passkey/options') || !response.ok()) return;
    void response.json().then((body: { ceremony: string }) => traffic.offered.push(body.ceremony));
  });
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/auth/passkey')) traffic.answered.push((request.postDataJSON() as { ceremony: string }).ceremony);
  });
  return traffic;
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

async function tokenOf(page: Page): Promise<string | null> {
  return page.evaluate(() => localStorage.getItem('token'));
}

/** The tab holds a session of `email`: its menu names them, and its token answers for them at the API. */
async function expectSignedInAs(page: Page, email: string, texts: Texts) {
  await shown(page.getByRole('button', { name: texts.userMenu }).getByText(email));
  const me = await api<{ email: string }>('/api/users/me', { token: (await tokenOf(page)) ?? '' });
  expect(me.status).toBe(200);
  expect(me.body.email).toBe(email);
}

/** Adds a passkey named `name` on the security page the tab shows, with the authenticator present. */
async function addPasskey(page: Page, authenticator: Awaited<ReturnType<typeof virtualAuthenticator>>, name: string, texts: Texts) {
  await authenticator.present(true);
  await page.getByRole('button', { name: texts.addPasskey, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.locator('#passkey-name').fill(name);
  await dialog.getByRole('button', { name: texts.createPasskey }).click();
  await shown(page.getByText(texts.added(name)));
  await shown(page.getByTestId('passkey').getByText(name, { exact: true }));
  const credentials = await authenticator.credentials();
  expect(credentials.map((credential) => credential.isResidentCredential)).toEqual([true]);
  await authenticator.present(false);
}

/**
 * Refuses the next sign-in page's autofill its ceremony (its request for options fails, and it offers none
 * then), so that only the passkey button's ceremony is there to answer: turning the authenticator's
 * presence on answers a request already waiting, the autofill's too. Set before the sign-in page mounts;
 * the function it returns resolves once the autofill has asked.
 */
async function refuseTheAutofill(page: Page): Promise<() => Promise<unknown>> {
  await page.route('**/api/auth/passkey/options', (route) => route.abort(), { times: 1 });
  const asked = page.waitForRequest((request) => request.url().endsWith('/api/auth/passkey/options'));
  return () => asked;
}

/** Clicks the passkey button of the sign-in page with the authenticator present: the session starts from the click's own ceremony. */
async function signInWithPasskeyButton(page: Page, authenticator: Awaited<ReturnType<typeof virtualAuthenticator>>, traffic: { offered: string[]; answered: string[] }, texts: Texts) {
  const offeredBefore = traffic.offered.length;
  const answeredBefore = traffic.answered.length;
  await authenticator.present(true);
  await page.getByRole('button', { name: texts.withPasskey, exact: true }).click();
  await expect.poll(() => traffic.answered.length).toBeGreaterThan(answeredBefore);
  // The options' body is read after the answer may have gone out: waited for.
  const answered = traffic.answered.at(-1);
  await expect.poll(() => traffic.offered.slice(offeredBefore)).toContain(answered);
}

it('a passkey added on the security page signs in alone, from the button and from the autofill, and answers the second step of a password sign-in', async () => {
  const texts = TEXTS.en;
  const user = await createVerifiedUser('en');
  const { page, errors } = await newPage(browser);
  const authenticator = await virtualAuthenticator(page);
  try {
    const traffic = watchPasskeySignIns(page);
    await page.goto(url('/en/login'));
    await fillSignIn(page, user, texts.signIn);
    await expectSignedInAs(page, user.email, texts);
    await openInApp(page, '/en/account/security');
    await addPasskey(page, authenticator, 'Test laptop', texts);

    // The button, with the email and password fields left empty.
    const autofillAsked = await refuseTheAutofill(page);
    await signOutWithMenu(page, texts);
    await page.waitForURL(url('/en/login'));
    await autofillAsked();
    await signInWithPasskeyButton(page, authenticator, traffic, texts);
    await page.waitForURL(url('/en'));
    await expectSignedInAs(page, user.email, texts);

    // The autofill: with the authenticator present, the sign-in page signs in by itself once idle.
    const signedOut = await tokenOf(page);
    const answeredBefore = traffic.answered.length;
    await signOutWithMenu(page, texts);
    await expect.poll(() => traffic.answered.length, { timeout: 20_000 }).toBeGreaterThan(answeredBefore);
    await page.waitForURL(url('/en'));
    await expectSignedInAs(page, user.email, texts);
    expect(await tokenOf(page)).not.toBe(signedOut);
    expect((await api('/api/users/me', { token: signedOut ?? '' })).status).toBe(401);

    // The second step of a password sign-in, answered with the passkey.
    await authenticator.present(false);
    await signOutWithMenu(page, texts);
    await page.waitForURL(url('/en/login'));
    await fillSignIn(page, user, texts.signIn);
    const step = page.getByTestId('two-factor-step');
    await shown(step.getByRole('button', { name: texts.useMyPasskey }));
    expect(await tokenOf(page)).toBeNull();
    await authenticator.present(true);
    await step.getByRole('button', { name: texts.useMyPasskey }).click();
    await page.waitForURL(url('/en'));
    await expectSignedInAs(page, user.email, texts);
    expect(errors).toEqual([]);
  } finally {
    await authenticator.remove();
  }
});

it('at the admin door a passkey signs staff in to the admin area; a session that ends there sends them back to that door (de)', async () => {
  const texts = TEXTS.de;
  const admin = await createVerifiedUser('de', { admin: true });
  const { page, errors } = await newPage(browser);
  const authenticator = await virtualAuthenticator(page);
  try {
    const traffic = watchPasskeySignIns(page);
    await page.goto(url('/de/admin/login'));
    await fillSignIn(page, admin, texts.adminSignIn);
    await page.waitForURL(url('/de/admin/users'));
    await openInApp(page, '/de/account/security');
    await addPasskey(page, authenticator, 'Büro-PC', texts);
    // Signed out from the admin area, straight to the admin door (one sign-in page, one autofill to refuse).
    await openInApp(page, '/de/admin/users');
    await shown(page.getByRole('heading', { level: 1, name: texts.users }));
    const autofillAsked = await refuseTheAutofill(page);
    await signOutWithMenu(page, texts);
    await page.waitForURL(url('/de/admin/login'));
    await shown(page.getByRole('heading', { level: 1, name: texts.adminLoginTitle }));
    await autofillAsked();
    await signInWithPasskeyButton(page, authenticator, traffic, texts);
    await page.waitForURL(url('/de/admin/users'));
    await shown(page.getByRole('heading', { level: 1, name: texts.users }));
    await expectSignedInAs(page, admin.email, texts);

    // The session ends elsewhere (signed out on the server, unknown to the tab): the next screen's call
    // answers 401, and the admin signs in again at the admin door, to come back to that screen.
    await authenticator.present(false);
    const ended = await fetch(url('/api/auth/logout'), { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${(await tokenOf(page)) ?? ''}` }, body: '{}' });
    expect(ended.ok).toBe(true);
    await moveRouter(page, `/de/admin/users/${admin.id}`);
    await page.waitForURL(url(`/de/admin/login?to=${encodeURIComponent(`/admin/users/${admin.id}`)}`));
    await shown(page.getByRole('heading', { level: 1, name: texts.adminLoginTitle }));
    expect(errors).toEqual([]);
  } finally {
    await authenticator.remove();
  }
});
