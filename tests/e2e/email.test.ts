import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRICE_IDS } from '../../server/sandbox/catalogue.js';
import { apiLogin, createVerifiedUser, launchBrowser, newContext, newPage, openInApp, seriousViolations, shown, signIn, url } from './browser.js';

/**
 * Issue 20 items 7, 8 and 11 in Chromium: change of sign-in email with both mails, a truncated
 * verification link with its resend, and the polish of the code entry and the visitor checkout.
 */
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

async function registerByApi(language: 'en' | 'de'): Promise<string> {
  const email = `e2e-mail-${randomBytes(4).toString('hex')}@example.com`;
  const response = await fetch(url('/api/users?generateVerificationCode=true'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Accept-Language': language },
    body: JSON.stringify({ email, password: 'sculpt4ever', firstName: 'Neu', lastName: 'Nutzer', privacyAccepted: true }),
  });
  expect(response.status).toBe(201);
  return email;
}

describe('change email in Chromium', () => {
  it('changes the sign-in email with the code from the new address; the old address is told; still signed in; each step passes axe (de)', async () => {
    const user = await createVerifiedUser('de');
    const next = `e2e-moved-${randomBytes(4).toString('hex')}@example.com`;
    const { page } = await newPage(browser);
    await signIn(page, '/de/login', user.email, user.password, /^Anmelden$/);
    await page.waitForURL((address) => address.pathname === '/de');
    await openInApp(page, '/de/account/profile');
    await page.getByRole('button', { name: 'E-Mail-Adresse ändern' }).click();
    const dialog = page.getByRole('dialog', { name: 'E-Mail-Adresse ändern' });
    await dialog.getByLabel('Neue E-Mail-Adresse').fill(next);
    await dialog.getByLabel('Aktuelles Passwort').fill('wrong password 1');
    await dialog.getByRole('button', { name: 'Code senden' }).click();
    await shown(dialog.getByText('Das Passwort ist nicht korrekt.'));
    // Each state of the dialog passes axe: the refused password …
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByLabel('Aktuelles Passwort').fill(user.password);
    await dialog.getByRole('button', { name: 'Code senden' }).click();
    await shown(dialog.getByRole('status').getByText(next, { exact: false }));
    // The first code box has the focus: the code is typed straight away.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Ziffer 1 von 6');
    // … and the code entry.
    expect(await seriousViolations(page)).toEqual([]);

    let code = '';
    await expect.poll(async () => (code = /(\d{6})$/.exec((await outbox(next))[0]?.subject ?? '')?.[1] ?? '')).toMatch(/^\d{6}$/);
    await page.keyboard.type(code);
    await dialog.getByRole('button', { name: 'E-Mail-Adresse ändern' }).click();
    await shown(page.getByText(`Deine Anmeldeadresse ist jetzt ${next}.`, { exact: false }));
    await expect.poll(() => page.locator('#profile-email').inputValue()).toBe(next);

    await expect
      .poll(async () => (await outbox(user.email)).map((mail) => mail.subject))
      .toContain('Die E-Mail-Adresse deines Shapelab-Kontos wurde geändert');
    expect(await apiLogin(next, user.password)).toBe(200);
    expect(await apiLogin(user.email, user.password)).toBe(401);
    // Still signed in: the next page loads without a sign-in.
    await page.goto(url('/de/account/profile'));
    await shown(page.getByRole('heading', { level: 1, name: 'Profil' }));
  }, 60_000);
});

describe('a truncated verification link in Chromium', () => {
  for (const language of ['en', 'de'] as const) {
    it(`says the link is invalid and resends to the given address (${language})`, async () => {
      const email = await registerByApi(language);
      const link = /http:\/\/\S+\/users\/validate\/\S+/.exec((await outbox(email))[0]?.text ?? '')?.[0] ?? '';
      const cut = new URL(link).pathname.slice(0, -30);
      const { page } = await newPage(browser);
      await page.goto(url(cut));
      const texts =
        language === 'en'
          ? { invalid: 'This verification link is not valid.', email: 'Email', resend: 'Send a new verification email', sent: 'a new email with a code and a link is on its way' }
          : { invalid: 'Dieser Bestätigungslink ist ungültig.', email: 'E-Mail', resend: 'Neue Bestätigungs-E-Mail senden', sent: 'ist eine neue E-Mail mit Code und Link unterwegs' };
      await shown(page.getByText(texts.invalid, { exact: false }));
      await expect(page.getByText('Some fields are missing or invalid.').count()).resolves.toBe(0);
      await page.getByRole('textbox', { name: texts.email, exact: false }).fill(email);
      await page.getByRole('button', { name: texts.resend }).click();
      await shown(page.getByRole('status').getByText(texts.sent, { exact: false }));
      await expect.poll(async () => (await outbox(email)).length).toBe(2);
    }, 60_000);
  }
});

describe('polish in Chromium', () => {
  it('the code entry focuses its first box and keeps Step 3/3 after a wrong code', async () => {
    const email = await registerByApi('en');
    const { page } = await newPage(browser);
    await page.goto(url(`/en/users/confirm?email=${encodeURIComponent(email)}`));
    // As the registration leaves it: the router's history state says the user came from it.
    await page.evaluate(() => window.history.replaceState({ usr: { registration: true }, key: 'reg', idx: 0 }, '', window.location.href));
    await page.reload();
    await shown(page.getByTestId('registration-step'));
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Digit 1 of 6');
    const code = /\b(\d{6})\b/.exec((await outbox(email))[0]?.text ?? '')?.[1] ?? '';
    await page.keyboard.type(String((Number(code) + 1) % 1_000_000).padStart(6, '0'));
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await shown(page.getByText('The verification code is not valid.'));
    await expect(page.getByTestId('registration-step').textContent()).resolves.toMatch(/^Step 3\/3/);
  }, 60_000);

  it('the visitor checkout names the plan and price; its sign-in tab offers forgot-password and social sign-in (en, de at 390 px)', async () => {
    const { page } = await newPage(browser);
    await page.goto(url(`/en/checkout/subscription/login/${PRICE_IDS.monthly}`));
    await expect.poll(() => page.getByTestId('checkout-offer').textContent()).toMatch(/check out Monthly at \$19\.99/);
    await shown(page.getByRole('link', { name: 'Forgot password?' }));
    await shown(page.getByRole('button', { name: 'Continue with Google' }));

    const phone = await newContext(browser, { locale: 'de-DE', viewport: { width: 390, height: 844 } });
    const small = await phone.newPage();
    await small.goto(url(`/de/checkout/subscription/login/${PRICE_IDS.yearly}`));
    await expect.poll(() => small.getByTestId('checkout-offer').textContent()).toMatch(/Jährlich für 199,90/);
    await shown(small.getByRole('button', { name: 'Weiter mit Google' }));
    expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  }, 60_000);
});
