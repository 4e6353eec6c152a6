import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, createVerifiedUser, launchBrowser, newContext, newPage, shown, url } from './browser.js';

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
    en: { invalid: 'Email address is invalid.', send: 'Send link', save: 'Save new password', done: 'Your password has been changed', expired: 'This password link is invalid or has expired', rule: 'At least 8 characters, mixing letters and numbers.', differ: 'The passwords do not match.' },
    de: { invalid: 'Die E-Mail-Adresse ist ungültig.', send: 'Link senden', save: 'Neues Passwort speichern', done: 'Dein Passwort wurde geändert', expired: 'Dieser Passwort-Link ist ungültig oder abgelaufen', rule: 'Mindestens 8 Zeichen, Buchstaben und Ziffern gemischt.', differ: 'Die Passwörter stimmen nicht überein.' },
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

/** The texts of issue 48's verification steps (items 5, 6 and 7). */
const VERIFY = {
  en: {
    signIn: 'Sign in',
    enterCode: 'Enter the verification code',
    notVerified: 'Your account is not verified yet.',
    confirm: 'Confirm',
    choosePlan: 'Choose a plan',
    verified: 'Email verified. Your Shapelab account is ready.',
    freePlan: 'Free plan',
    continueFree: 'Continue with the free plan',
    download: /^Download( Shapelab$| for )/,
    home: 'Account overview',
    accountMenu: 'Open account menu',
    verifiedElsewhere: 'Your email address is verified and your Shapelab account is ready.',
    registrationDone: 'Registration complete',
  },
  de: {
    signIn: 'Anmelden',
    enterCode: 'Bestätigungscode eingeben',
    notVerified: 'Dein Konto ist noch nicht bestätigt.',
    confirm: 'Bestätigen',
    choosePlan: 'Tarif wählen',
    verified: 'E-Mail-Adresse bestätigt. Dein Shapelab-Konto ist bereit.',
    freePlan: 'Kostenloser Tarif',
    continueFree: 'Mit dem kostenlosen Tarif weiter',
    download: /^(Shapelab|Für .+) herunterladen$/,
    home: 'Kontoübersicht',
    accountMenu: 'Kontomenü öffnen',
    verifiedElsewhere: 'Deine E-Mail-Adresse ist bestätigt und dein Shapelab-Konto ist bereit.',
    registrationDone: 'Registrierung abgeschlossen',
  },
} as const;

/** Registers from the page, as the registration form does: the answer leaves the browser its verification cookie. */
async function registerInPage(page: Page, language: 'en' | 'de'): Promise<string> {
  const email = `e2e-tab-${randomBytes(4).toString('hex')}@example.com`;
  const status = await page.evaluate(
    async ({ email, language }) =>
      (
        await fetch('/api/users?generateVerificationCode=true', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Accept-Language': language },
          body: JSON.stringify({ email, password: 'sculpt4ever', firstName: 'Neu', lastName: 'Nutzer', privacyAccepted: true }),
        })
      ).status,
    { email, language },
  );
  expect(status).toBe(201);
  return email;
}

const codeOf = async (email: string) => /\b(\d{6})\b/.exec((await outbox(email))[0]?.text ?? '')?.[1] ?? '';
const linkOf = async (email: string) => pathIn((await outbox(email))[0]?.text, /http:\/\/\S+\/users\/validate\/\S+/);

/** The signed-in place both ways of verifying end in (issue 48 item 5): choose-plan, saying so, the free plan going on or downloading. */
async function expectVerifiedLanding(page: Page, language: 'en' | 'de', email: string) {
  const texts = VERIFY[language];
  await page.waitForURL((address) => address.pathname === `/${language}/account/subscription/choose-plan`);
  await shown(page.getByRole('heading', { level: 1, name: texts.choosePlan }));
  await shown(page.getByRole('status').getByText(texts.verified));
  await shown(page.getByRole('button', { name: texts.accountMenu }).getByText(email));
  const free = page.getByRole('article', { name: texts.freePlan });
  await shown(free.getByRole('link', { name: texts.download }).or(free.getByRole('button', { name: texts.download })));
  await free.getByRole('link', { name: texts.continueFree }).click();
  await page.waitForURL((address) => address.pathname === `/${language}`);
  await shown(page.getByRole('heading', { level: 1, name: texts.home }));
}

for (const language of ['en', 'de'] as const) {
  const texts = VERIFY[language];
  describe(`verifying ends signed in, saying so, by code or by link (issue 48 items 5 and 6, ${language})`, () => {
    it('the code: choose-plan says the email is verified; the free plan goes on to the home', async () => {
      const { page, errors } = await newPage(browser);
      await page.goto(url(`/${language}/login`));
      const email = await registerInPage(page, language);
      await page.goto(url(`/${language}/users/confirm?email=${encodeURIComponent(email)}`));
      await shown(page.locator('input[autocomplete="one-time-code"]'));
      await page.locator('input[autocomplete="one-time-code"]').focus();
      await page.keyboard.type(await codeOf(email));
      await page.getByRole('button', { name: texts.confirm, exact: true }).click();
      await expectVerifiedLanding(page, language, email);
      expect(errors).toEqual([]);
    });

    it('the link, opened in the browser that registered: signed in there, in the same place', async () => {
      const { page, context, errors } = await newPage(browser);
      await page.goto(url(`/${language}/login`));
      const email = await registerInPage(page, language);
      // The mail is opened in a new tab of the same browser.
      const { page: mailTab } = await newPage(browser, context);
      await mailTab.goto(url(await linkOf(email)));
      await expectVerifiedLanding(mailTab, language, email);
      expect(errors).toEqual([]);
    });

    it('the link, opened in another browser: verified, and signing in there continues to choose-plan', async () => {
      const { page } = await newPage(browser);
      await page.goto(url(`/${language}/login`));
      const email = await registerInPage(page, language);
      const elsewhere = await newContext(browser, { locale: language === 'en' ? 'en-US' : 'de-DE' });
      const other = await elsewhere.newPage();
      await other.goto(url(await linkOf(email)));
      await shown(other.getByRole('heading', { level: 1, name: texts.registrationDone }));
      await shown(other.getByRole('status').getByText(texts.verifiedElsewhere));
      await other.getByRole('link', { name: texts.signIn }).click();
      await other.locator('#email').fill(email);
      await other.locator('#password').fill('sculpt4ever');
      await other.getByRole('button', { name: texts.signIn, exact: true }).click();
      await other.waitForURL((address) => address.pathname === `/${language}/account/subscription/choose-plan`);
      await shown(other.getByRole('heading', { level: 1, name: texts.choosePlan }));
    });

    it('signing in unverified offers the code entry, with the address filled in and no new mail; the code ends in the same place', async () => {
      const email = await registerByApi(language);
      const { page, errors } = await newPage(browser);
      await page.goto(url(`/${language}/login`));
      await page.locator('#email').fill(email);
      await page.locator('#password').fill('sculpt4ever');
      await page.getByRole('button', { name: texts.signIn, exact: true }).click();
      await shown(page.getByRole('alert').getByText(texts.notVerified, { exact: false }));
      await page.getByRole('link', { name: texts.enterCode }).click();
      await page.waitForURL((address) => address.pathname === `/${language}/users/confirm`);
      await expect(page.locator('#email').inputValue()).resolves.toBe(email);
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('autocomplete'))).toBe('one-time-code');
      await page.keyboard.type(await codeOf(email));
      await page.getByRole('button', { name: texts.confirm, exact: true }).click();
      await expectVerifiedLanding(page, language, email);
      // The code of the first mail did it: nothing was sent again.
      expect(await outbox(email)).toHaveLength(1);
      expect(errors).toEqual([]);
    });
  });
}

describe('the code entry on a phone (issue 48 item 7)', () => {
  for (const language of ['en', 'de'] as const) {
    it(`its fields, six code boxes and buttons stay inside the card at 390 and 320 px (${language})`, async () => {
      const email = await registerByApi(language);
      const { page } = await newPage(browser);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(url(`/${language}/users/confirm?email=${encodeURIComponent(email)}`));
      await shown(page.locator('input[autocomplete="one-time-code"]'));
      for (const width of [390, 320]) {
        await page.setViewportSize({ width, height: 844 });
        // Inside the card's content box: a box in the card's padding runs to its edge.
        const outside = await page.evaluate(() => {
          const section = document.querySelector('section[aria-labelledby="page-title"]');
          if (!section) return ['no card'];
          const style = getComputedStyle(section);
          const card = section.getBoundingClientRect();
          const left = card.left + parseFloat(style.paddingLeft);
          const right = card.right - parseFloat(style.paddingRight);
          return Array.from(section.querySelectorAll('input, button, .MuiOutlinedInput-root'))
            .map((element) => ({ name: element.getAttribute('aria-label') || element.id || element.textContent || element.className, box: element.getBoundingClientRect() }))
            .filter(({ box }) => box.left < left - 0.5 || box.right > right + 0.5)
            .map(({ name, box }) => `${name}: ${Math.round(box.left)}–${Math.round(box.right)} outside ${Math.round(left)}–${Math.round(right)}`);
        });
        expect(outside, `at ${width} px`).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `at ${width} px`).toBeLessThanOrEqual(width);
      }
    });
  }
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
