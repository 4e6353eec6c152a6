import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifiedUser, launchBrowser, newPage, openInApp, shown, signIn, url } from './browser.js';

/**
 * Billing info and the checkout's region and VAT dialog, with spec section 5's region rules: postal codes
 * per country, VAT numbers by format and check digits behind "I'm buying as a business" (issue 20), and
 * the billing email (spec section 2). A consumer's purchase: tests/e2e/purchase-history.test.ts.
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
    signIn: /^Sign in$/,
    title: 'Billing info',
    email: 'Email',
    emailHint: "Invoices and receipts go to this address. You still sign in with your account's email.",
    emailTaken: 'This email address is already used by another billing account.',
    postcode: 'Postcode',
    country: 'Country',
    business: "I'm buying as a business",
    germany: 'Germany',
    uk: 'United Kingdom',
    company: 'Company name',
    vat: 'VAT number',
    state: 'State or county',
    street: 'Street',
    city: 'Town or city',
    save: 'Save',
    required: 'This field is required.',
    postcodeInvalid: 'Enter a valid postcode for the selected country.',
    vatInvalid: "This VAT number does not match the country's format or check digits.",
    saved: 'Your billing info is saved.',
    regionAndVat: 'Region and VAT',
    before: '$299.00',
    after: '$358.80',
  },
  de: {
    signIn: /^Anmelden$/,
    title: 'Rechnungsdaten',
    email: 'E-Mail',
    emailHint: 'Rechnungen und Belege gehen an diese Adresse. Anmelden kannst du dich weiter mit der E-Mail-Adresse deines Kontos.',
    emailTaken: 'Diese E-Mail-Adresse wird bereits von einem anderen Abrechnungskonto verwendet.',
    postcode: 'Postleitzahl',
    country: 'Land',
    business: 'Ich kaufe als Unternehmen',
    germany: 'Deutschland',
    uk: 'Vereinigtes Königreich',
    company: 'Firmenname',
    vat: 'USt-IdNr.',
    state: 'Bundesland oder Region',
    street: 'Straße',
    city: 'Ort',
    save: 'Speichern',
    required: 'Dieses Feld ist erforderlich.',
    postcodeInvalid: 'Gib eine gültige Postleitzahl für das gewählte Land ein.',
    vatInvalid: 'Diese USt-IdNr. passt nicht zum Format oder zu den Prüfziffern des Landes.',
    saved: 'Deine Rechnungsdaten sind gespeichert.',
    regionAndVat: 'Region und USt-IdNr.',
    before: '299,00\u00a0$',
    after: '358,80\u00a0$',
  },
} as const;

/** The email of another user who has a customer at Paddle (created on first use, as the billing pages do). */
async function billingCustomerEmail(): Promise<string> {
  const holder = await createVerifiedUser();
  const login = await fetch(url('/api/auth/login'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: holder.email, password: holder.password }),
  });
  const { access_token: token } = (await login.json()) as { access_token: string };
  const customer = await fetch(url('/api/subscription/paddle/customer'), { headers: { authorization: `Bearer ${token}` } });
  expect(customer.status).toBe(200);
  return holder.email;
}

for (const language of ['en', 'de'] as const) {
  const texts = TEXTS[language];

  describe(`billing info in Chromium (${language})`, () => {
    it('validates and keeps the billing address and email; the checkout’s region dialog changes the tax', async () => {
      const user = await createVerifiedUser(language);
      const taken = await billingCustomerEmail();
      const billingEmail = `billing-${user.email}`;
      const { page, errors } = await newPage(browser);
      await signIn(page, `/${language}/login`, user.email, user.password, texts.signIn);
      await page.waitForURL(new RegExp(`/${language}(/account/subscription/choose-plan)?$`));
      await openInApp(page, `/${language}/account/billing-info`);
      await shown(page.getByRole('heading', { level: 1, name: texts.title }));
      const form = page.getByTestId('billing-info');
      // The billing email starts as the account's, editable, and says what it is for.
      await expect.poll(() => form.getByLabel(texts.email).inputValue()).toBe(user.email);
      await shown(form.getByText(texts.emailHint));
      await form.getByRole('button', { name: texts.save }).click();
      await shown(form.getByText(texts.required));

      await form.getByLabel(new RegExp(`^${texts.country}`)).focus();
      await form.getByLabel(new RegExp(`^${texts.country}`)).selectOption({ label: texts.germany });
      // Not a German postal code; a German-looking VAT number whose check digit is wrong.
      await form.getByLabel(texts.postcode).fill('abc');
      // Company and VAT number are a business's: hidden until the buyer says they buy as one.
      expect(await form.getByLabel(texts.company).count()).toBe(0);
      await form.getByLabel(texts.business).check();
      await form.getByLabel(texts.company).fill('Analytical Engines GmbH');
      // A business's invoice carries its street and town: required once the switch is on.
      await form.getByLabel(new RegExp(`^${texts.street}`)).fill('Unter den Linden 1');
      await form.getByLabel(new RegExp(`^${texts.city}`)).fill('Berlin');
      await form.getByLabel(texts.vat).fill('DE 123 456 789');
      await form.getByRole('button', { name: texts.save }).click();
      await shown(form.getByText(texts.postcodeInvalid));
      await shown(form.getByText(texts.vatInvalid));

      // Another customer's email is refused by the server, under the email field, and nothing is saved.
      await form.getByLabel(texts.postcode).fill('10117');
      await form.getByLabel(texts.vat).fill('DE 136 695 976');
      await form.getByLabel(texts.email).fill(taken);
      await form.getByRole('button', { name: texts.save }).click();
      await shown(form.getByText(texts.emailTaken));
      expect(await form.getByText(texts.postcodeInvalid).count()).toBe(0);

      await form.getByLabel(texts.email).fill(billingEmail);
      await form.getByRole('button', { name: texts.save }).click();
      // Saved is a notification (Refine's notification provider), not a line in the form.
      await shown(page.getByRole('alert').getByText(texts.saved));
      await page.reload();
      // A saved business opens with the switch on.
      await expect.poll(() => form.getByLabel(texts.vat).inputValue()).toBe('DE136695976');
      expect(await form.getByLabel(texts.business).isChecked()).toBe(true);
      expect(await form.getByLabel(texts.postcode).inputValue()).toBe('10117');
      expect(await form.getByLabel(texts.email).inputValue()).toBe(billingEmail);

      await openInApp(page, `/${language}/checkout-new/perpetual`);
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
      await dialog.getByLabel(texts.vat).fill('GB980780684');
      await dialog.getByRole('button', { name: texts.save }).click();
      // UK VAT of 20% applies.
      await expect.poll(() => page.getByTestId('checkout-dueToday').textContent()).toBe(texts.after);
      expect(errors).toEqual([]);
    });
  });
}
