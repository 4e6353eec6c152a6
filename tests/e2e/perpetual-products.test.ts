import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRICE_IDS } from '../../server/sandbox/catalogue.js';
import { CARD_FIELDS, createVerifiedUser, launchBrowser, newPage, openInApp, shown, signIn } from './browser.js';

/**
 * The one-off purchase page `/perpetual` (spec section 2) in Chromium: the perpetual releases on offer
 * with their prices excluding tax, reached from the plans page, each leading to its checkout.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const TEXTS = {
  en: { signIn: /^Sign in$/, link: 'Buy a perpetual licence', title: 'Perpetual licences', price: '$249.00', buy: 'Buy Shapelab 2024' },
  de: { signIn: /^Anmelden$/, link: 'Dauerlizenz kaufen', title: 'Dauerlizenzen', price: '249,00\u00a0$', buy: 'Shapelab 2024 kaufen' },
} as const;

for (const language of ['en', 'de'] as const) {
  const texts = TEXTS[language];

  describe(`perpetual licences page in Chromium (${language})`, () => {
    it('lists the releases on offer with their prices; buying one opens its checkout', async () => {
      const user = await createVerifiedUser(language);
      const { page, errors } = await newPage(browser);
      await signIn(page, `/${language}/login`, user.email, user.password, texts.signIn);
      await page.waitForURL(new RegExp(`/${language}(/account/subscription/choose-plan)?$`));
      await openInApp(page, `/${language}/account/subscription/choose-plan`);
      await page.getByRole('link', { name: texts.link }).click();
      await page.waitForURL(new RegExp(`/${language}/perpetual$`));
      await shown(page.getByRole('heading', { level: 1, name: texts.title }));

      const offer = page.getByRole('article', { name: 'Shapelab 2024' });
      await shown(offer.getByText(texts.price, { exact: true }));
      await shown(page.getByRole('article', { name: 'Shapelab 2025' }));
      await offer.getByRole('link', { name: texts.buy }).click();
      await page.waitForURL(new RegExp(`/${language}/checkout-new/perpetual/${PRICE_IDS.perpetual2024}$`));
      await shown(page.frameLocator('iframe.paddle-frame').getByLabel(CARD_FIELDS.number));
      expect(errors).toEqual([]);
    }, 60_000);
  });
}
