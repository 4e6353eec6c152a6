import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifiedUser, launchBrowser, newPage, shown, signIn, url } from './browser.js';

/**
 * Google and Facebook in Chromium against the local stand-ins (oidc-provider for Google, the OAuth 2
 * stand-in for Facebook) that the portal starts outside production: the whole redirect flow, no mocks.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** On the stand-in's sign-in page: type the identity and continue, or cancel. */
async function atProvider(page: Page, provider: 'Google' | 'Facebook', who: { email: string; name: string } | 'cancel') {
  await shown(page.getByRole('heading', { level: 1, name: `${provider} sign-in` }));
  if (who === 'cancel') {
    await page.getByRole('button', { name: 'Cancel' }).click();
    return;
  }
  await page.getByLabel('Email', { exact: true }).fill(who.email);
  await page.getByLabel('Name', { exact: true }).fill(who.name);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Open account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.waitForURL(/\/login$/);
}

const someone = () => ({ email: `e2e-social-${randomBytes(4).toString('hex')}@example.com`, name: 'Ada Lovelace' });

describe('Google and Facebook in Chromium', () => {
  it('a new visitor signs up with Google and lands on choose-plan; signing in again finds the same account', async () => {
    const who = someone();
    const { page, errors } = await newPage(browser);
    await page.goto(url('/login'));
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await atProvider(page, 'Google', who);
    // Spec section 2: no last payment and no perpetual licence -> choose-plan (no stored checkout).
    await page.waitForURL(/\/account\/subscription\/choose-plan$/);
    await shown(page.getByRole('button', { name: 'Open account menu' }).getByText(who.email));

    await signOut(page);
    // Signing out of the portal does not sign out of Google: its session answers at once, as Google's does.
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await page.waitForURL(/\/account\/subscription\/choose-plan$/);
    await page.goto(url('/account/profile'));
    await shown(page.getByText('Google · connected'));
    await expect(page.getByLabel('First name').inputValue()).resolves.toBe('Ada');
    expect(errors).toEqual([]);
  });

  it('connects Facebook from the profile and disconnects it after confirming', async () => {
    const user = await createVerifiedUser('en');
    const { page } = await newPage(browser);
    await signIn(page, '/login', user.email, user.password, /^Sign in$/);
    await page.waitForURL(/\/$/);
    await page.goto(url('/account/profile'));
    await shown(page.getByText('Facebook · not connected'));
    await page.getByRole('button', { name: 'Connect Facebook' }).click();
    const facebookIdentity = someone();
    await atProvider(page, 'Facebook', facebookIdentity);
    await page.waitForURL(/\/account\/profile$/);
    await shown(page.getByRole('alert').getByText('Facebook is now connected to your account.'));
    await shown(page.getByText('Facebook · connected'));

    await page.getByRole('button', { name: 'Disconnect Facebook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Disconnect Facebook?' });
    await shown(dialog);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await shown(page.getByText('Facebook · connected'));
    await page.getByRole('button', { name: 'Disconnect Facebook' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Disconnect', exact: true }).click();
    // Facebook asks for the linked account once more.
    await atProvider(page, 'Facebook', facebookIdentity);
    await page.waitForURL(/\/account\/profile$/);
    await shown(page.getByRole('alert').getByText('Facebook is disconnected from your account.'));
    await shown(page.getByText('Facebook · not connected'));
  });

  it('a second user connecting the same Google identity is told it is already connected', async () => {
    const who = someone();
    const first = await newPage(browser);
    await first.page.goto(url('/registration'));
    await first.page.getByRole('button', { name: 'Continue with Google' }).click();
    await atProvider(first.page, 'Google', who);
    await first.page.waitForURL(/\/choose-plan$/);
    await first.page.context().close();

    const user = await createVerifiedUser('en');
    const { page } = await newPage(browser);
    await signIn(page, '/login', user.email, user.password, /^Sign in$/);
    await page.waitForURL(/\/$/);
    await page.goto(url('/account/profile'));
    await page.getByRole('button', { name: 'Connect Google' }).click();
    await atProvider(page, 'Google', who);
    await page.waitForURL(/\/account\/profile$/);
    await shown(page.getByRole('alert').getByText('This Google or Facebook account is already connected to another Shapelab account.'));
    await shown(page.getByText('Google · not connected'));
  });

  it('cancelling at the provider returns to login with the reason, in German', async () => {
    const { page } = await newPage(browser);
    await page.goto(url('/de/login'));
    await page.getByRole('button', { name: 'Weiter mit Facebook' }).click();
    await atProvider(page, 'Facebook', 'cancel');
    await page.waitForURL(/\/de\/login$/);
    await shown(page.getByRole('alert').getByText('Die Anmeldung wurde abgebrochen oder der Zugriff verweigert.'));
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });
});
