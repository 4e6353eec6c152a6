import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRICE_IDS } from '../../server/sandbox/catalogue.js';
import { CARD_FIELDS, SUBMIT_CARD, createVerifiedUser, launchBrowser, newPage, openInApp, shown, url } from './browser.js';

/**
 * The external checkout (spec sections 2 and 4): a visitor picks a plan on the website, registers from
 * the checkout's tab, confirms the mailed code, continues to that checkout, pays, and has the trial.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function outbox(email: string): Promise<{ text: string }[]> {
  return (await (await fetch(url(`/api/dev/outbox?to=${encodeURIComponent(email)}`))).json()) as { text: string }[];
}

const TEXTS = {
  en: { next: 'Next', create: 'Create account', accept: 'I accept the', confirm: 'Confirm', signIn: /^Sign in$/, loginTab: 'Sign in', statusTrial: 'Free trial', of: 'of' },
  de: { next: 'Weiter', create: 'Konto erstellen', accept: 'Ich akzeptiere die', confirm: 'Bestätigen', signIn: /^Anmelden$/, loginTab: 'Anmelden', statusTrial: 'Kostenloser Testzeitraum', of: 'von' },
} as const;

for (const language of ['en', 'de'] as const) {
  const texts = TEXTS[language];

  describe(`external checkout in Chromium (${language})`, () => {
    it('a visitor registers from the checkout, confirms, continues to that plan, pays and has the trial', async () => {
      const email = `e2e-ext-${language}-${randomBytes(4).toString('hex')}@example.com`;
      const { page, errors } = await newPage(browser);
      await page.goto(url(`/${language}/checkout/subscription/registration/${PRICE_IDS.monthly}`));
      await shown(page.getByRole('tab', { name: texts.create, selected: true }));
      await page.locator('#first-name').fill('Ada');
      await page.locator('#last-name').fill('Lovelace');
      await page.locator('#email').fill(email);
      await page.locator('#password').fill('e2e password 42');
      await page.getByRole('button', { name: texts.next, exact: true }).click();
      await page.getByLabel(texts.accept).check();
      await page.getByRole('button', { name: texts.create }).click();

      await page.waitForURL(new RegExp(`/${language}/users/confirm\\?email=`));
      await expect.poll(async () => (await outbox(email)).length).toBe(1);
      const code = /\b(\d{6})\b/.exec((await outbox(email))[0]?.text ?? '')?.[1] ?? '';
      for (const [index, digit] of [...code].entries()) await page.locator(`[aria-label$=" ${index + 1} ${texts.of} 6"]`).fill(digit);
      await page.getByRole('button', { name: texts.confirm, exact: true }).click();

      // On to the chosen checkout, with the chosen (monthly) price selected.
      await page.waitForURL(new RegExp(`/${language}/checkout-new/subscription/${PRICE_IDS.monthly}$`));
      const checkout = page.frameLocator('iframe.paddle-frame');
      await checkout.getByLabel(CARD_FIELDS.number).fill('4242 4242 4242 4242');
      await checkout.getByLabel(CARD_FIELDS.expiry).fill('12/30');
      await checkout.getByLabel(CARD_FIELDS.securityCode).fill('123');
      await checkout.getByLabel(CARD_FIELDS.name).fill('Ada Lovelace');
      await checkout.getByRole('button', { name: SUBMIT_CARD }).click();
      await page.waitForURL(new RegExp(`/${language}/subscription/success$`));
      await shown(page.getByTestId('granted'));
      await openInApp(page, `/${language}/account/subscription`);
      await shown(page.getByText(texts.statusTrial, { exact: true }));
      expect(errors).toEqual([]);
    });

    it('a tab other than login opens the registration tab (spec section 2)', async () => {
      const { page, errors } = await newPage(browser);
      for (const tab of ['registration', 'signup', 'register']) {
        await page.goto(url(`/${language}/checkout/subscription/${tab}/${PRICE_IDS.monthly}`));
        await shown(page.getByRole('tab', { name: texts.create, selected: true }));
        expect(await page.getByRole('tab', { name: texts.loginTab, selected: true }).count()).toBe(0);
        await shown(page.locator('#first-name'));
      }
      await page.goto(url(`/${language}/checkout/subscription/login/${PRICE_IDS.monthly}`));
      await shown(page.getByRole('tab', { name: texts.loginTab, selected: true }));
      expect(errors).toEqual([]);
    });

    it('signing in from the checkout’s tab continues to it; a signed-in visitor goes straight there', async () => {
      const user = await createVerifiedUser(language);
      const { page, errors } = await newPage(browser);
      await page.goto(url(`/${language}/checkout/perpetual/login/${PRICE_IDS.perpetual2024}?discountCode=WELCOME20`));
      await shown(page.getByRole('tab', { name: texts.loginTab, selected: true }));
      await page.locator('#email').fill(user.email);
      await page.locator('#password').fill(user.password);
      await page.getByRole('button', { name: texts.signIn }).click();
      await page.waitForURL(new RegExp(`/${language}/checkout-new/perpetual/${PRICE_IDS.perpetual2024}\\?discountCode=WELCOME20$`));
      await shown(page.getByTestId('checkout-discount-code'));

      await page.goto(url(`/${language}/checkout/subscription/login`));
      await page.waitForURL(new RegExp(`/${language}/checkout-new/subscription$`));
      expect(errors).toEqual([]);
    });
  });
}
