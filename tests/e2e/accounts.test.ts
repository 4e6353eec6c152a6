import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, createVerifiedUser, launchBrowser, newPage, shown, url } from './browser.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function outbox(email: string): Promise<{ subject: string; text: string }[]> {
  const response = await fetch(url(`/api/dev/outbox?to=${encodeURIComponent(email)}`));
  return (await response.json()) as { subject: string; text: string }[];
}

const pathIn = (text: string | undefined, pattern: RegExp) => new URL(pattern.exec(text ?? '')?.[0] ?? 'http://x/').pathname;


async function registerByApi(language: 'en' | 'de'): Promise<string> {
  const email = `e2e-new-${randomBytes(4).toString('hex')}@example.com`;
  const response = await fetch(url('/api/users?generateVerificationCode=true'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Accept-Language': language },
    body: JSON.stringify({ email, password: 'sculpt4ever', firstName: 'Neu', lastName: 'Nutzer', privacyAccepted: true }),
  });
  expect(response.status).toBe(201);
  return email;
}

async function paste(page: Page, selector: string, text: string) {
  await page.locator(selector).first().evaluate((element, value) => {
    const data = new DataTransfer();
    data.setData('text', value);
    element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

for (const language of ['en', 'de'] as const) {
  const texts = {
    en: { invalid: 'Email address is invalid!', send: 'Send link', save: 'Save new password', done: 'Your password has been changed', expired: 'This password link is invalid or has expired', rule: 'At least 8 characters, mixing letters and numbers.', differ: 'The passwords do not match.' },
    de: { invalid: 'Die E-Mail-Adresse ist ungültig!', send: 'Link senden', save: 'Neues Passwort speichern', done: 'Dein Passwort wurde geändert', expired: 'Dieser Passwort-Link ist ungültig oder abgelaufen', rule: 'Mindestens 8 Zeichen, Buchstaben und Ziffern gemischt.', differ: 'Die Passwörter stimmen nicht überein.' },
  }[language];

  describe(`forgot password in Chromium (${language})`, () => {
    it('the mailed link sets a new password once; the new one works and the old one does not', async () => {
      const user = await createVerifiedUser(language);
      const { page, errors } = await newPage(browser);
      await page.goto(url(`/${language}/forgot-password`));
      await page.getByRole('button', { name: texts.send }).click();
      await shown(page.getByText(texts.invalid));
      await page.locator('#email').fill(user.email);
      await page.getByRole('button', { name: texts.send }).click();
      await shown(page.getByRole('status'));

      const link = pathIn((await outbox(user.email))[0]?.text, /http:\/\/\S+\/forgot-password\/validate\/\S+/);
      // The mail links to the page in the account's language.
      expect(link.startsWith(`/${language}/forgot-password/validate/`)).toBe(true);
      await page.goto(url(link));
      await page.locator('#new-password').fill('tooweak');
      await page.locator('#confirm-password').fill('different 1');
      await page.getByRole('button', { name: texts.save }).click();
      await shown(page.locator('#new-password-helper').getByText(texts.rule));
      await page.locator('#new-password').fill('fresh start 2026');
      await page.getByRole('button', { name: texts.save }).click();
      await shown(page.getByText(texts.differ));
      await page.locator('#confirm-password').fill('fresh start 2026');
      await page.getByRole('button', { name: texts.save }).click();
      await shown(page.getByRole('status').getByText(texts.done));

      expect(await apiLogin(user.email, 'fresh start 2026')).toBe(200);
      expect(await apiLogin(user.email, user.password)).toBe(401);
      await page.goto(url(link));
      await shown(page.getByRole('alert').getByText(texts.expired));
      expect(errors).toEqual([]);
    });
  });
}

describe('email verification in Chromium', () => {
  it('the mailed link verifies the address; a second visit says it is already verified', async () => {
    const email = await registerByApi('de');
    const link = pathIn((await outbox(email))[0]?.text, /http:\/\/\S+\/users\/validate\/\S+/);
    expect(link).toMatch(/^\/de\/users\/validate\//);
    const { page } = await newPage(browser);
    await page.goto(url(link));
    await page.waitForURL(/\/de\/registration\/success$/);
    await shown(page.getByRole('status').getByText('Deine E-Mail-Adresse ist bestätigt und dein Shapelab-Konto ist bereit.'));
    await page.goto(url(link));
    await shown(page.getByRole('status').getByText('Dieses Konto ist bereits bestätigt.', { exact: false }));
    expect(await apiLogin(email, 'sculpt4ever')).toBe(200);
  });

  it('the code can be pasted; a paste with letters is refused; confirming signs in and continues to choose-plan', async () => {
    const email = await registerByApi('en');
    const code = /\b(\d{6})\b/.exec((await outbox(email))[0]?.text ?? '')?.[1] ?? '';
    const { page } = await newPage(browser);
    await page.goto(url(`/users/confirm?email=${encodeURIComponent(email)}`));
    await shown(page.getByRole('group', { name: 'Verification code' }));
    await paste(page, '[aria-label="Digit 1 of 6"]', `${code.slice(0, 3)}x${code.slice(4)}`);
    await shown(page.getByText('Invalid characters in the pasted OTP.'));
    await paste(page, '[aria-label="Digit 1 of 6"]', `${code.slice(0, 3)} ${code.slice(3)}`);
    await expect(page.locator('[aria-label="Digit 6 of 6"]').inputValue()).resolves.toBe(code.slice(5));
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await page.waitForURL(/\/account\/subscription\/choose-plan$/);
    await shown(page.getByRole('heading', { level: 1, name: 'Choose a plan' }));
  });
});

describe('signing in before verifying', () => {
  it('shows the not-verified error, offers a resend and leads to the code entry with a new code', async () => {
    const email = await registerByApi('en');
    const { page } = await newPage(browser);
    await page.goto(url('/login'));
    await page.locator('#email').fill(email);
    await page.locator('#password').fill('sculpt4ever');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await shown(page.getByRole('alert').getByText('Your account is not verified yet.', { exact: false }));
    await page.getByRole('button', { name: 'Resend verification email' }).click();
    await page.waitForURL(/\/users\/confirm\?email=/);
    await expect(page.locator('#email').inputValue()).resolves.toBe(email);
    await expect.poll(async () => (await outbox(email)).length).toBe(2);
  });
});
