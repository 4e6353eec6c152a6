import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../../server/db/index.js';
import { PRICE_IDS } from '../../server/sandbox/catalogue.js';
import { launchBrowser, newPage, openInApp, shown, signIn, url } from './browser.js';

/**
 * Issue 21 in Chromium, en and de: support opens one customer's page (by its address: the grid's row
 * click is another change), reads the story the services logged (sign-up, verification, payment, device
 * activation) as sentences, and refunds the subscription from there after a confirmation that names the
 * amount; the timeline and the payment then show the refund, with the admin who made it.
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
    signIn: /sign in as administrator/i,
    registered: 'Registered an account',
    verified: 'Verified the email address',
    paid: /^Paid .+ for the subscription$/,
    activated: 'Activated Shapelab on Studio PC (device ID pc-story)',
    refundButton: (amount: string) => `Cancel and refund ${amount}`,
    refundTitle: (amount: string) => `Cancel and refund ${amount} now?`,
    refundConsequence: 'ends at once and loses its access now',
    confirm: 'Refund and end now',
    notRefundable: 'Not refundable: its payment has been refunded already',
    refundedEntry: (amount: string) => `${amount} refunded`,
    cancelledEntry: 'Cancelled the subscription with a refund: it ended at once',
    by: (email: string) => `by ${email}`,
    refunded: 'Refunded',
    refundPending: /Refund pending|Refunded/,
    canceled: 'Ended',
    notFound: 'User not found',
  },
  de: {
    signIn: /als administrator anmelden/i,
    registered: 'Konto registriert',
    verified: 'E-Mail-Adresse bestätigt',
    paid: /^.+ für das Abonnement bezahlt$/,
    activated: 'Shapelab auf Studio PC aktiviert (Geräte-ID pc-story)',
    refundButton: (amount: string) => `Kündigen und ${amount} erstatten`,
    refundTitle: (amount: string) => `Jetzt kündigen und ${amount} erstatten?`,
    refundConsequence: 'endet sofort und der Zugang mit ihm',
    confirm: 'Erstatten und sofort beenden',
    notRefundable: 'Nicht erstattbar: Die Zahlung wurde bereits erstattet',
    refundedEntry: (amount: string) => `${amount} erstattet`,
    cancelledEntry: 'Abonnement mit Erstattung gekündigt: es endete sofort',
    by: (email: string) => `durch ${email}`,
    refunded: 'Erstattet',
    refundPending: /Erstattung ausstehend|Erstattet/,
    canceled: 'Beendet',
    notFound: 'Benutzer nicht gefunden',
  },
} as const;

async function api<T>(path: string, options: { method?: string; token?: string; body?: unknown } = {}): Promise<{ status: number; body: T }> {
  const response = await fetch(url(path), {
    method: options.method ?? 'GET',
    headers: { 'Content-Type': 'application/json', ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}) },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

/**
 * A customer's story told through the API, as they would live it: registered with the form's call,
 * verified with the mailed code, subscribed monthly (paid at once: they subscribed before, so no trial),
 * and Shapelab activated on a computer.
 */
async function customerStory(language: 'en' | 'de') {
  const email = `story-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'sculpt 4 ever';
  const registered = await api(`/api/users?generateVerificationCode=true`, {
    method: 'POST',
    body: { email, password, firstName: 'Ada', lastName: 'Lovelace', privacyAccepted: true, language },
  });
  expect(registered.status, JSON.stringify(registered.body)).toBe(201);
  let code = '';
  await expect
    .poll(async () => {
      const mails = (await api<{ text: string }[]>(`/api/dev/outbox?to=${encodeURIComponent(email)}`)).body;
      code = /\b(\d{6})\b/.exec(mails[0]?.text ?? '')?.[1] ?? '';
      return code;
    })
    .not.toBe('');
  expect((await api('/api/users/validate/code', { method: 'POST', body: { email, code } })).status).toBe(200);
  const { access_token: token } = (await api<{ access_token: string }>('/api/auth/login', { method: 'POST', body: { email, password } })).body;
  const me = (await api<{ id: string }>('/api/users/me', { token })).body;
  await subscribedBefore(me.id);

  const checkout = await api<{ transactionId: string }>('/api/paddle/checkout', { method: 'POST', token, body: { priceId: PRICE_IDS.monthly } });
  expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
  const { clientToken } = (await api<{ clientToken: string }>('/api/paddle/config')).body;
  const paid = await api('/paddle-sandbox/api/pay', { method: 'POST', body: { token: clientToken, transactionId: checkout.body.transactionId, cardNumber: '4242 4242 4242 4242' } });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  let refund: { amount: number; currencyCode: string } | null = null;
  await expect
    .poll(
      async () => {
        const subscription = (await api<{ status: string; refund: { amount: { amount: number; currencyCode: string } } | null } | null>('/api/subscription/user', { token })).body;
        refund = subscription?.refund?.amount ?? null;
        return subscription?.status === 'active' && refund !== null;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  const activated = await api('/api/desktop/activate', { method: 'POST', token, body: { computerId: 'pc-story', name: 'Studio PC' } });
  expect(activated.status, JSON.stringify(activated.body)).toBe(200);
  return { id: me.id, email, transactionId: checkout.body.transactionId, refund: refund as unknown as { amount: number; currencyCode: string } };
}

/** An earlier, ended subscription: the 14-day trial is for a first one (spec section 4), so this one pays at once. */
async function subscribedBefore(userId: string): Promise<void> {
  const db = openDatabase({ dialect: 'sqlite', file: inject('databaseFile') });
  try {
    const long = new Date(Date.now() - 400 * 86_400_000).toISOString();
    const ended = new Date(Date.now() - 300 * 86_400_000).toISOString();
    await db.kysely
      .insertInto('subscriptions')
      .values({
        id: `sub_e2eearlier${randomBytes(6).toString('hex')}`,
        customer_id: `ctm_e2eearlier${randomBytes(6).toString('hex')}`,
        user_id: userId,
        status: 'canceled',
        price_id: PRICE_IDS.monthly,
        billing_interval: 'month',
        currency_code: 'USD',
        canceled_at: ended,
        created_at: long,
        last_event_at: ended,
      })
      .execute();
  } finally {
    await db.destroy();
  }
}

/** An amount as the page writes it in `language` (Intl, as the one money formatter does). */
function money(language: string, amount: { amount: number; currencyCode: string }): string {
  return new Intl.NumberFormat(language, { style: 'currency', currency: amount.currencyCode, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount.amount / 100);
}

async function reloadUntil(page: Page, check: () => Promise<boolean>): Promise<void> {
  await expect
    .poll(
      async () => {
        if (await check()) return true;
        await page.reload();
        await page.locator('h1').first().waitFor({ state: 'visible', timeout: 10_000 });
        return check();
      },
      { timeout: 30_000, interval: 500 },
    )
    .toBe(true);
}

for (const language of ['en', 'de'] as const) {
  const texts = TEXTS[language];

  describe(`the admin user page in Chromium (${language})`, () => {
    it("reads a customer's timeline and refunds their subscription from it, after a confirmation", async () => {
      const story = await customerStory(language);
      const amount = money(language, story.refund);
      const { page, errors } = await newPage(browser);
      await signIn(page, `/${language}/admin/login`, inject('adminEmail'), inject('adminPassword'), texts.signIn);
      await page.waitForURL((address) => address.pathname === `/${language}/admin/users`);

      await openInApp(page, `/${language}/admin/users/${story.id}`);
      await shown(page.getByRole('heading', { level: 1, name: story.email }));
      const timeline = page.getByTestId('user-timeline');
      await shown(timeline.getByText(texts.registered, { exact: false }));
      await shown(timeline.getByText(texts.verified, { exact: true }));
      await shown(timeline.getByText(texts.paid));
      await shown(timeline.getByText(texts.activated, { exact: true }));
      // Newest first: the activation, then the payment, then the verification, then the sign-up.
      const order = await timeline.locator('li').evaluateAll((items) => items.map((item) => item.getAttribute('data-testid')));
      const events = order.filter((kind) => kind !== 'timeline-session.signed_in');
      expect(events).toEqual(['timeline-device.activated', 'timeline-purchase.completed', 'timeline-email.verified', 'timeline-account.registered']);
      await shown(page.getByTestId('user-devices').getByText('Studio PC', { exact: true }));
      await shown(page.getByTestId(`payment-${story.transactionId}`));

      // The refund, offered with its amount, asked first with what follows.
      await page.getByTestId('user-subscription').getByRole('button', { name: texts.refundButton(amount) }).click();
      const dialog = page.getByRole('dialog');
      await shown(dialog.getByRole('heading', { name: texts.refundTitle(amount) }));
      await shown(dialog.getByText(texts.refundConsequence, { exact: false }));
      await dialog.getByRole('button', { name: texts.confirm }).click();
      await dialog.waitFor({ state: 'hidden' });

      // The timeline and the payment follow without a reload: the refund and the cancellation, by the admin.
      await shown(timeline.getByText(texts.refundedEntry(amount), { exact: true }));
      const refundedEntry = timeline.getByTestId('timeline-purchase.refunded');
      await shown(refundedEntry.getByText(texts.by(inject('adminEmail')), { exact: false }));
      await shown(timeline.getByText(texts.cancelledEntry, { exact: true }));
      await shown(page.getByTestId(`payment-${story.transactionId}`).getByTestId('payment-refund').getByText(texts.refundPending));
      await shown(page.getByTestId('user-subscription').getByText(texts.canceled, { exact: true }));
      expect(await page.getByTestId('user-subscription').getByRole('button', { name: texts.refundButton(amount) }).count()).toBe(0);
      // Issue 48 item 11: why it cannot be refunded again, the one reason that applies.
      await shown(page.getByTestId('user-subscription').getByText(texts.notRefundable, { exact: true }));
      // Paddle approves the refund (its webhook): the payment then reads refunded.
      await reloadUntil(page, async () => (await page.getByTestId(`payment-${story.transactionId}`).getByTestId('payment-refund').textContent())?.includes(texts.refunded) ?? false);

      // An address that names no user says so under its own heading.
      await page.goto(url(`/${language}/admin/users/00000000-0000-4000-8000-000000000000`));
      await shown(page.getByRole('heading', { level: 1, name: texts.notFound }));
      expect(errors).toEqual([]);
    }, 120_000);
  });
}
