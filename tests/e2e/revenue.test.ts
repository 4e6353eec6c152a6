import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRICE_IDS } from '../../server/sandbox/catalogue.js';
import { CARD_FIELDS, createVerifiedUser, launchBrowser, newPage, openInApp, payWith, rawTranslationText, shown, url } from './browser.js';

/**
 * Issue 46 in Chromium, in en and de, on a server of its own (it moves the server's clock): the yearly
 * checkout without raw text; a renewal on the card declined on later charges, the past-due banner on every
 * page and the mail, then a card update that makes the subscription active again; pause and resume; and
 * the refund-once notice before paying for a release returned once.
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
    remember: 'Remember me',
    renewsYearly: 'Renews every year until you cancel.',
    pauseTrial: 'A free trial cannot be paused.',
    banner: 'Your payment of $199.90 did not go through.',
    amount: '$199.90',
    update: 'Update your card',
    enterCard: 'Enter a new card',
    updated: 'Your payment method is updated.',
    failedMail: 'Your Shapelab payment did not go through',
    active: 'Active',
    pausing: 'Active, pauses at the end of the period',
    paused: 'Paused',
    pause: 'Pause subscription',
    pauseOpen: 'Stay paused until I resume it',
    confirmPause: 'Pause',
    keepRunning: 'Keep it running',
    resume: 'Resume subscription',
    resumed: 'Your subscription is active again.',
    freePlan: 'Export and save are disabled in Shapelab.',
    returnLicence: 'Return for a refund',
    confirmReturn: 'Return and refund',
    refundNotice: 'No refund: you have had the 14-day refund for this release once already',
    notReturnable: 'Not returnable: you have had the 14-day refund for Shapelab 2025 once already.',
    licenceReady: 'Your Shapelab 2025 perpetual licence is ready.',
  },
  de: {
    signIn: /^Anmelden$/,
    remember: 'Angemeldet bleiben',
    renewsYearly: 'Verlängert sich jedes Jahr, bis du kündigst.',
    pauseTrial: 'Ein kostenloser Testzeitraum kann nicht pausiert werden.',
    banner: 'Deine Zahlung von 199,90\u00a0$ ist nicht durchgegangen.',
    amount: '199,90\u00a0$',
    update: 'Karte aktualisieren',
    enterCard: 'Neue Karte eingeben',
    updated: 'Deine Zahlungsmethode wurde geändert.',
    failedMail: 'Deine Zahlung für Shapelab ist nicht durchgegangen',
    active: 'Aktiv',
    pausing: 'Aktiv, pausiert zum Ende des Zeitraums',
    paused: 'Pausiert',
    pause: 'Abonnement pausieren',
    pauseOpen: 'Pausiert lassen, bis ich es fortsetze',
    confirmPause: 'Pausieren',
    keepRunning: 'Weiterlaufen lassen',
    resume: 'Abonnement fortsetzen',
    resumed: 'Dein Abonnement ist wieder aktiv.',
    freePlan: 'Exportieren und Speichern sind in Shapelab deaktiviert.',
    returnLicence: 'Gegen Erstattung zurückgeben',
    confirmReturn: 'Zurückgeben und erstatten',
    refundNotice: 'Keine Erstattung: Du hast die Erstattung innerhalb von 14 Tagen für diese Version schon einmal erhalten',
    notReturnable: 'Nicht rückgabefähig: Du hast die Erstattung innerhalb von 14 Tagen für Shapelab 2025 schon einmal erhalten.',
    licenceReady: 'Shapelab 2025 Dauerlizenz ist bereit.',
  },
} as const;

async function advanceServerClock(seconds: number): Promise<void> {
  const response = await fetch(url('/api/dev/clock'), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ advanceSeconds: seconds }) });
  expect(response.status).toBe(200);
}

async function outbox(email: string): Promise<{ subject: string; text: string }[]> {
  return (await (await fetch(url(`/api/dev/outbox?to=${encodeURIComponent(email)}`))).json()) as { subject: string; text: string }[];
}

/** The user's subscription as the API tells it, read in the tab with its token. */
async function subscriptionIn(page: Page): Promise<{ status: string; trialEndsAt: string | null; currentPeriod: { endsAt: string } | null } | null> {
  return page.evaluate(async () => {
    const response = await fetch('/api/subscription/user', { headers: { authorization: `Bearer ${localStorage.getItem('token')}` } });
    return (await response.json()) as { status: string; trialEndsAt: string | null; currentPeriod: { endsAt: string } | null } | null;
  });
}

/** Seconds from the server's now to `iso`, plus a minute: the clock moved just past it. */
async function secondsUntil(iso: string): Promise<number> {
  const response = await fetch(url('/api/dev/clock'), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ advanceSeconds: 0 }) });
  const { now } = (await response.json()) as { now: string };
  return Math.ceil((Date.parse(iso) - Date.parse(now)) / 1000) + 60;
}

interface Customer {
  email: string;
  password: string;
  language: 'en' | 'de';
}

/** Signs in with "remember me": the session outlives the access token while the clock moves days on. */
async function signInAs(page: Page, customer: Customer): Promise<void> {
  await page.goto(url(`/${customer.language}/login`));
  await page.locator('#email').fill(customer.email);
  await page.locator('#password').fill(customer.password);
  await page.getByLabel(TEXTS[customer.language].remember).check();
  await page.getByRole('button', { name: TEXTS[customer.language].signIn }).click();
  await page.waitForURL(new RegExp(`/${customer.language}(/account/subscription/choose-plan)?$`));
}

/** A new customer, signed in. */
async function signedIn(language: 'en' | 'de') {
  const user = { ...(await createVerifiedUser(language)), language };
  const { page, errors } = await newPage(browser);
  await signInAs(page, user);
  return { user, page, errors };
}

/**
 * Moves the server's clock just past `iso`, waits until the subscription is `status` (the stand-in renews or
 * pauses on its next tick, and its webhook arrives after that), then shows `path` again. A screen loaded in
 * between could read the old state and open its event stream after the webhook's live update was sent, so
 * the screen is loaded once the server holds the new state: after a fortnight by a reload (the remembered
 * session renews its access token), after longer by signing in anew (a remembered session lasts 30 days).
 */
async function passTime(page: Page, iso: string, customer: Customer, path: string, status: string): Promise<void> {
  const seconds = await secondsUntil(iso);
  await advanceServerClock(seconds);
  if (seconds > 20 * 86_400) {
    await page.evaluate(() => localStorage.clear());
    await signInAs(page, customer);
  } else {
    await page.reload();
  }
  await expect.poll(async () => (await subscriptionIn(page))?.status, { timeout: 20_000 }).toBe(status);
  await page.goto(url(path));
  await shown(page.getByRole('heading', { level: 1 }));
}

/** The yearly plan's checkout (no launch offer: its summary ends with the renewal), paid with `card`: a trial starts. */
async function buyYearly(page: Page, language: 'en' | 'de', card: string): Promise<void> {
  await openInApp(page, `/${language}/checkout-new/subscription/${PRICE_IDS.yearly}`);
  await shown(page.frameLocator('iframe.paddle-frame').getByLabel(CARD_FIELDS.number));
  await shown(page.getByTestId('checkout-then').getByText(TEXTS[language].renewsYearly));
  expect(await rawTranslationText(page)).toEqual([]);
  await payWith(page, card);
  await page.waitForURL(new RegExp(`/${language}/subscription/success$`));
  await shown(page.getByTestId('granted'));
}

for (const language of ['en', 'de'] as const) {
  const texts = TEXTS[language];

  describe(`revenue that holds and recovers, in Chromium (${language})`, () => {
    it('a renewal declined: the banner on every page and the mail, then a new card makes the subscription active again', async () => {
      const { user, page, errors } = await signedIn(language);
      await buyYearly(page, language, '4000 0000 0000 0341');
      await openInApp(page, `/${language}/account/subscription`);
      // A trial is told it cannot pause.
      await shown(page.getByTestId('pause-trial').getByText(texts.pauseTrial, { exact: false }));
      const trial = await subscriptionIn(page);
      await passTime(page, String(trial?.trialEndsAt), user, `/${language}/account/subscription`, 'past_due');
      // The renewal is declined: the banner shows on the subscription page and on any other.
      await shown(page.getByTestId('past-due-banner').getByText(texts.banner, { exact: false }));
      await shown(page.getByTestId('subscription-past-due'));
      for (const path of ['', '/account/licences', '/account/profile', '/account/purchase-history']) {
        await openInApp(page, `/${language}${path}`);
        await shown(page.getByTestId('past-due-banner').getByText(texts.banner, { exact: false }));
      }
      // The mail: the amount, and the way to the card update in the customer's language.
      await expect.poll(async () => (await outbox(user.email)).map((mail) => mail.subject), { timeout: 20_000 }).toContain(texts.failedMail);
      const failed = (await outbox(user.email)).find((mail) => mail.subject === texts.failedMail);
      expect(failed?.text).toContain(texts.amount);
      expect(failed?.text).toContain(url(`/${language}/account/payment-options`));

      await page.getByTestId('past-due-banner').getByRole('link', { name: texts.update }).click();
      await page.waitForURL(new RegExp(`/${language}/account/payment-options$`));
      await page.getByRole('button', { name: texts.enterCard }).click();
      await payWith(page, '4242 4242 4242 4242');
      await shown(page.getByText(texts.updated));
      // The open payment is collected on the new card: the banner goes, the subscription is active.
      await expect.poll(() => page.getByTestId('past-due-banner').count(), { timeout: 20_000 }).toBe(0);
      await openInApp(page, `/${language}/account/subscription`);
      await shown(page.getByText(texts.active, { exact: true }));
      expect(await page.getByTestId('subscription-past-due').count()).toBe(0);
      expect((await subscriptionIn(page))?.status).toBe('active');
      expect(await rawTranslationText(page)).toEqual([]);
      expect(errors).toEqual([]);
    }, 120_000);

    it('pauses at the end of the period and resumes: a scheduled pause withdrawn, a running one ended', async () => {
      const { user, page, errors } = await signedIn(language);
      await buyYearly(page, language, '4242 4242 4242 4242');
      // Past the trial: the first year is paid, the subscription active.
      const trial = await subscriptionIn(page);
      await openInApp(page, `/${language}/account/subscription`);
      await passTime(page, String(trial?.trialEndsAt), user, `/${language}/account/subscription`, 'active');
      await shown(page.getByText(texts.active, { exact: true }));

      await page.getByRole('button', { name: texts.pause }).click();
      const pauseDialog = page.getByRole('dialog');
      await pauseDialog.getByRole('radio', { name: texts.pauseOpen }).check();
      await pauseDialog.getByRole('button', { name: texts.confirmPause, exact: true }).click();
      await shown(page.getByText(texts.pausing, { exact: true }));
      // Withdrawn before it begins: the plan runs on.
      await page.getByRole('button', { name: texts.keepRunning }).click();
      await page.getByRole('dialog').getByRole('button', { name: texts.keepRunning }).click();
      await shown(page.getByText(texts.active, { exact: true }));

      // Paused again, and the year runs out: paused, and the desktop is on the free plan.
      await page.getByRole('button', { name: texts.pause }).click();
      await page.getByRole('dialog').getByRole('radio', { name: texts.pauseOpen }).check();
      await page.getByRole('dialog').getByRole('button', { name: texts.confirmPause, exact: true }).click();
      await shown(page.getByText(texts.pausing, { exact: true }));
      const running = await subscriptionIn(page);
      await passTime(page, String(running?.currentPeriod?.endsAt), user, `/${language}/account/subscription`, 'paused');
      await openInApp(page, `/${language}`);
      await shown(page.getByTestId('home-export').getByText(texts.freePlan));
      await openInApp(page, `/${language}/account/subscription`);
      await shown(page.getByText(texts.paused, { exact: true }));

      await page.getByRole('button', { name: texts.resume }).click();
      await page.getByRole('dialog').getByRole('button', { name: texts.resume }).click();
      await shown(page.getByText(texts.resumed));
      await shown(page.getByText(texts.active, { exact: true }));
      expect(await rawTranslationText(page)).toEqual([]);
      expect(errors).toEqual([]);
    }, 120_000);

    it('a release returned once: its checkout says before paying that the next purchase is not refundable, and the licence says so after', async () => {
      const { page, errors } = await signedIn(language);
      await openInApp(page, `/${language}/checkout-new/perpetual/${PRICE_IDS.perpetual2025}`);
      await shown(page.frameLocator('iframe.paddle-frame').getByLabel(CARD_FIELDS.number));
      expect(await page.getByTestId('checkout-refund-notice').count()).toBe(0);
      await payWith(page, '4242 4242 4242 4242');
      await page.waitForURL(new RegExp(`/${language}/perpetual/success$`));
      await shown(page.getByTestId('granted').getByText(texts.licenceReady));

      await openInApp(page, `/${language}/account/licences`);
      await page.getByRole('button', { name: texts.returnLicence }).click();
      await page.getByRole('dialog').getByRole('button', { name: texts.confirmReturn }).click();
      await expect.poll(() => page.getByTestId('licence').count(), { timeout: 20_000 }).toBe(0);

      // Before paying again: the notice.
      await openInApp(page, `/${language}/checkout-new/perpetual/${PRICE_IDS.perpetual2025}`);
      await shown(page.getByTestId('checkout-refund-notice').getByText(texts.refundNotice, { exact: false }));
      await shown(page.frameLocator('iframe.paddle-frame').getByLabel(CARD_FIELDS.number));
      expect(await rawTranslationText(page)).toEqual([]);
      await payWith(page, '4242 4242 4242 4242');
      await page.waitForURL(new RegExp(`/${language}/perpetual/success$`));
      // After: the licence is not returnable, and says why.
      await openInApp(page, `/${language}/account/licences`);
      await shown(page.getByTestId('licence-refund-used').getByText(texts.notReturnable));
      expect(await page.getByRole('button', { name: texts.returnLicence }).count()).toBe(0);
      expect(errors).toEqual([]);
    }, 120_000);
  });
}
