import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifiedUser, launchBrowser, newPage, shown, signIn, url } from './browser.js';

/** Billing info and the checkout's region and VAT dialog, with spec section 5's region rules. */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const TEXTS = {
  en: {
    signIn: /^Sign in$/,
    title: 'Billing info',
    postcode: 'Postcode',
    country: 'Country',
    germany: 'Germany',
    uk: 'United Kingdom',
    company: 'Company name',
    vat: 'VAT number',
    state: 'State or county',
    street: 'Street',
    city: 'Town or city',
    save: 'Save',
    required: 'This field is required.',
    postcodeInvalid: 'Enter a valid postcode.',
    vatInvalid: "This VAT number does not match the country's format.",
    saved: 'Your billing info is saved.',
    regionAndVat: 'Region and VAT',
    before: '$299.00',
    after: '$358.80',
  },
  de: {
    signIn: /^Anmelden$/,
    title: 'Rechnungsdaten',
    postcode: 'Postleitzahl',
    country: 'Land',
    germany: 'Deutschland',
    uk: 'Vereinigtes Königreich',
    company: 'Firmenname',
    vat: 'USt-IdNr.',
    state: 'Bundesland oder Region',
    street: 'Straße',
    city: 'Ort',
    save: 'Speichern',
    required: 'Dieses Feld ist erforderlich.',
    postcodeInvalid: 'Gib eine gültige Postleitzahl ein.',
    vatInvalid: 'Diese USt-IdNr. passt nicht zum Format des Landes.',
    saved: 'Deine Rechnungsdaten sind gespeichert.',
    regionAndVat: 'Region und USt-IdNr.',
    before: '299,00\u00a0$',
    after: '358,80\u00a0$',
  },
} as const;

for (const language of ['en', 'de'] as const) {
  const texts = TEXTS[language];

  describe(`billing info in Chromium (${language})`, () => {
    it('validates and keeps the billing address; the checkout’s region dialog changes the tax', async () => {
      const user = await createVerifiedUser(language);
      const { page, errors } = await newPage(browser);
      await signIn(page, `/${language}/login`, user.email, user.password, texts.signIn);
      await page.waitForURL(new RegExp(`/${language}(/account/subscription/choose-plan)?$`));
      await page.goto(url(`/${language}/account/billing-info`));
      await shown(page.getByRole('heading', { level: 1, name: texts.title }));
      const form = page.getByTestId('billing-info');
      await form.getByRole('button', { name: texts.save }).click();
      await shown(form.getByText(texts.required));

      await form.getByLabel(new RegExp(`^${texts.country}`)).focus();
      await form.getByLabel(new RegExp(`^${texts.country}`)).selectOption({ label: texts.germany });
      await form.getByLabel(texts.postcode).fill('1');
      await form.getByLabel(texts.company).fill('Analytical Engines GmbH');
      await form.getByLabel(texts.vat).fill('FR12345678901');
      await form.getByRole('button', { name: texts.save }).click();
      await shown(form.getByText(texts.postcodeInvalid));
      await shown(form.getByText(texts.vatInvalid));

      await form.getByLabel(texts.postcode).fill('10117');
      await form.getByLabel(texts.vat).fill('DE 123 456 789');
      await form.getByRole('button', { name: texts.save }).click();
      await shown(form.getByText(texts.saved));
      await page.reload();
      await expect.poll(() => form.getByLabel(texts.vat).inputValue()).toBe('DE123456789');
      expect(await form.getByLabel(texts.postcode).inputValue()).toBe('10117');

      await page.goto(url(`/${language}/checkout-new/perpetual`));
      // A German business with a valid VAT number is reverse-charged: no tax.
      await expect.poll(() => page.getByTestId('checkout-dueToday').textContent()).toBe(texts.before);
      await page.getByRole('button', { name: texts.regionAndVat }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel(new RegExp(`^${texts.country}`)).focus();
      await dialog.getByLabel(new RegExp(`^${texts.country}`)).selectOption({ label: texts.uk });
      await dialog.getByLabel(texts.state).fill('Greater London');
      await dialog.getByLabel(texts.street).fill('1 Main Street');
      await dialog.getByLabel(texts.city).fill('London');
      await dialog.getByLabel(texts.postcode).fill('SW1A 1AA');
      await dialog.getByLabel(texts.vat).fill('GB123456789');
      await dialog.getByRole('button', { name: texts.save }).click();
      // UK VAT of 20% applies.
      await expect.poll(() => page.getByTestId('checkout-dueToday').textContent()).toBe(texts.after);
      expect(errors).toEqual([]);
      await page.context().close();
    });
  });
}
