import { afterAll, beforeAll, expect, it } from 'vitest';
import { PRICE_IDS } from '../../server/sandbox/catalogue.js';
import { TEST_CARDS } from '../../server/sandbox/purchases.js';
import { call, startSandbox } from '../fixtures/paddle.js';
import { signIn, TEST_NOW, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * What happens to a subscription as time passes and the user changes it: renewal when the trial ends,
 * switching monthly<->yearly (preview equals charge, new cycle, no first-purchase discount, trial rule),
 * a charge that cannot be collected, a new payment method, the PayPal approval, and the payments the
 * webhooks record. Through the real SDK against the stand-in, German VAT on every amount.
 */
let paddle: Awaited<ReturnType<typeof startSandbox>>;

beforeAll(async () => {
  paddle = await startSandbox();
});
afterAll(async () => {
  await paddle?.sandbox.close();
});

const DAY = 86_400_000;
const VAT = 0.19;
const withVat = (net: number) => net + Math.round(net * VAT);

/** A subscriber in Berlin (19% VAT) who bought `priceId`; the clocks stand at TEST_NOW. */
async function berliner(server: TestServer, options: { card?: string; priceId?: string; method?: 'card' | 'paypal' } = {}) {
  await paddle.travelTo(server, TEST_NOW);
  const user = await server.createUser();
  const { access_token: token } = await signIn(server, user.email, user.password);
  const saved = await call(server, 'PATCH', '/api/subscription/billing-info', token, { payload: { country: 'DE', postalCode: '10117', city: 'Berlin' } });
  expect(saved.statusCode, saved.body).toBe(200);
  const customerId = (await call(server, 'GET', '/api/subscription/paddle/customer', token)).json().id as string;
  const addresses = [];
  for await (const address of paddle.paddle.addresses.list(customerId)) addresses.push(address);
  const checkout = await paddle.paddle.transactions.create({
    items: [{ priceId: options.priceId ?? PRICE_IDS.monthly, quantity: 1 }],
    customerId,
    addressId: addresses[0]?.id,
  });
  const paid = await paddle.pay(checkout.id, options.card ?? TEST_CARDS.success, options.method);
  expect(paid.status).toBe(200);
  await paddle.sandbox.flush();
  return { user, customerId };
}

/** Signs in again (after a clock jump the last token has expired) and reads the subscription. */
async function session(server: TestServer, user: { email: string; password: string }) {
  const { access_token: token } = await signIn(server, user.email, user.password);
  const subscription = async () => (await call(server, 'GET', '/api/subscription/user', token)).json();
  return { token, subscription };
}

async function payments(server: TestServer, userId: string) {
  const rows = await server.db.kysely.selectFrom('transactions').selectAll().where('user_id', '=', userId).orderBy('last_event_at').execute();
  return rows.map((row) => ({ origin: row.origin, status: row.status, grandTotal: Number(row.grand_total), tax: Number(row.tax), currency: row.currency_code }));
}

describeEachDatabase(
  'subscription changes',
  (server) => {
    beforeAll(() => {
      paddle.deliverTo(server);
    });

    it('renews when the clock passes the end of the trial: charged with tax, active, next cycle', async () => {
      const { user } = await berliner(server());
      const trialEnds = new Date(TEST_NOW.getTime() + 14 * DAY);
      await paddle.travelTo(server(), new Date(trialEnds.getTime() - 60_000));
      expect((await (await session(server(), user)).subscription()).status).toBe('trialing');

      await paddle.travelTo(server(), new Date(trialEnds.getTime() + 60_000));
      const renewed = await (await session(server(), user)).subscription();
      expect(renewed).toMatchObject({ status: 'active', currentPeriod: { startsAt: trialEnds.toISOString() }, nextBilledAt: '2027-01-06T10:00:00.000Z' });
      expect(await payments(server(), user.id)).toEqual([
        { origin: 'api', status: 'completed', grandTotal: 0, tax: 0, currency: 'USD' },
        { origin: 'subscription_recurring', status: 'completed', grandTotal: withVat(1999), tax: Math.round(1999 * VAT), currency: 'USD' },
      ]);
    });

    it('switches monthly to yearly: the preview’s charge is the charge, a new cycle starts, in the same minute', async () => {
      const { user } = await berliner(server());
      const trialEnds = TEST_NOW.getTime() + 14 * DAY;
      const switchAt = new Date(trialEnds + 10 * DAY + 123_456);
      await paddle.travelTo(server(), switchAt);
      const { token, subscription } = await session(server(), user);

      const preview = await call(server(), 'POST', '/api/subscription/change/preview', token, { payload: { interval: 'year' } });
      expect(preview.statusCode, preview.body).toBe(200);
      const minute = new Date(Math.floor(switchAt.getTime() / 60_000) * 60_000);
      const periodMinutes = (Date.parse('2027-01-06T10:00:00.000Z') - trialEnds) / 60_000;
      const unusedMinutes = (Date.parse('2027-01-06T10:00:00.000Z') - minute.getTime()) / 60_000;
      const unusedNet = Math.round((1999 * unusedMinutes) / periodMinutes);
      const credit = withVat(unusedNet);
      expect(preview.json()).toEqual({
        priceId: PRICE_IDS.yearly,
        interval: 'year',
        chargedAt: switchAt.toISOString(),
        charge: { amount: withVat(19990) - credit, currencyCode: 'USD' },
        tax: { amount: Math.round(19990 * VAT), currencyCode: 'USD' },
        credit: { amount: credit, currencyCode: 'USD' },
        newPeriod: { startsAt: minute.toISOString(), endsAt: '2027-12-16T10:02:00.000Z' },
      });

      const changed = await call(server(), 'POST', '/api/subscription/change', token, { payload: { interval: 'year' } });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json()).toMatchObject({ status: 'active', interval: 'year', priceId: PRICE_IDS.yearly, nextBilledAt: preview.json().newPeriod.endsAt });
      await paddle.sandbox.flush();
      // The switch's payment arrives by webhook: from then on, cancelling would refund it too.
      const { refund: _before, ...answered } = changed.json();
      expect(await subscription()).toEqual({ ...answered, refund: { until: expect.any(String), amount: { amount: expect.any(Number), currencyCode: 'USD' } } });
      const charged = (await payments(server(), user.id)).at(-1);
      expect(charged).toEqual({ origin: 'subscription_update', status: 'completed', grandTotal: preview.json().charge.amount, tax: expect.any(Number), currency: 'USD' });
    });

    it('during the trial a switch charges the new plan in full when the trial ends, without its first-purchase discount', async () => {
      const { user } = await berliner(server(), { priceId: PRICE_IDS.yearly });
      const trialEnds = new Date(TEST_NOW.getTime() + 14 * DAY).toISOString();
      const { token, subscription } = await session(server(), user);
      const preview = await call(server(), 'POST', '/api/subscription/change/preview', token, { payload: { interval: 'month' } });
      expect(preview.statusCode, preview.body).toBe(200);
      // The monthly plan's launch discount (50% off the first month) is not applied to a switch.
      expect(preview.json()).toMatchObject({
        chargedAt: trialEnds,
        charge: { amount: withVat(1999) },
        credit: { amount: 0 },
        newPeriod: { startsAt: trialEnds, endsAt: '2027-01-06T10:00:00.000Z' },
      });
      expect((await call(server(), 'POST', '/api/subscription/change', token, { payload: { interval: 'month' } })).statusCode).toBe(200);
      await paddle.sandbox.flush();
      expect(await subscription()).toMatchObject({ status: 'trialing', interval: 'month', nextBilledAt: trialEnds });
      expect((await payments(server(), user.id)).length).toBe(1);

      await paddle.travelTo(server(), new Date(Date.parse(trialEnds) + 60_000));
      expect((await payments(server(), user.id)).at(-1)).toMatchObject({ origin: 'subscription_recurring', grandTotal: withVat(1999) });
    });

    it('switching to the plan one already has, or while a cancellation is pending, is refused', async () => {
      const { user } = await berliner(server());
      const { token } = await session(server(), user);
      const same = await call(server(), 'POST', '/api/subscription/change/preview', token, { payload: { interval: 'month' } });
      expect(same.statusCode).toBe(400);
      expect((await call(server(), 'POST', '/api/subscription/cancel', token)).statusCode).toBe(200);
      const pending = await call(server(), 'POST', '/api/subscription/change', token, { payload: { interval: 'year' }, language: 'de' });
      expect(pending.statusCode).toBe(409);
      expect(pending.json()).toEqual({ messageKey: 'SUBSCRIPTION_CHANGE_PENDING', message: expect.stringMatching(/^Das Abonnement ist zum Ende gekündigt/) });
    });

    it('a renewal the card declines makes it past due; a switch then is not chargeable; a new card collects and restores it', async () => {
      const { user } = await berliner(server(), { card: TEST_CARDS.failsLater });
      await paddle.travelTo(server(), new Date(TEST_NOW.getTime() + 14 * DAY + 60_000));
      const { token, subscription } = await session(server(), user);
      expect(await subscription()).toMatchObject({ status: 'past_due', nextBilledAt: null });
      expect((await payments(server(), user.id)).at(-1)).toMatchObject({ origin: 'subscription_recurring', status: 'past_due' });

      for (const language of ['en', 'de']) {
        const refused = await call(server(), 'POST', '/api/subscription/change/preview', token, { payload: { interval: 'year' }, language });
        expect(refused.statusCode).toBe(409);
        expect(refused.json().messageKey).toBe('PRORATION_NOT_CHARGEABLE');
        expect(refused.json().message).toMatch(language === 'en' ? /^The prorated amount cannot be charged right now/ : /^Der anteilige Betrag kann gerade nicht/);
      }

      const method = async () => (await call(server(), 'GET', '/api/subscription/payment-method', token)).json();
      expect(await method()).toEqual({ type: 'card', card: { brand: 'visa', last4: '0341', expiryMonth: 12, expiryYear: 2030 } });
      const update = await call(server(), 'POST', '/api/subscription/payment-method', token);
      expect(update.statusCode, update.body).toBe(200);
      const declined = await paddle.pay(update.json().transactionId, TEST_CARDS.declined);
      expect(declined.status).toBe(402);
      expect((await paddle.pay(update.json().transactionId, TEST_CARDS.success)).status).toBe(200);
      await paddle.sandbox.flush();
      expect(await subscription()).toMatchObject({ status: 'active', nextBilledAt: '2027-01-06T10:00:00.000Z' });
      expect((await method()).card.last4).toBe('4242');
      expect((await payments(server(), user.id)).find((p) => p.origin === 'subscription_recurring')).toMatchObject({ status: 'completed', grandTotal: withVat(1999) });
    });

    it('after the PayPal return the subscription is approved at once, for its owner only', async () => {
      const { user, customerId } = await berliner(server(), { method: 'paypal' });
      const [first] = await (async () => {
        const found = [];
        for await (const subscription of paddle.paddle.subscriptions.list({ customerId: [customerId] })) found.push(subscription);
        return found;
      })();
      const { token } = await session(server(), user);
      const approved = await call(server(), 'GET', `/api/subscription/approve/${first?.id}`, token);
      expect(approved.statusCode, approved.body).toBe(200);
      expect(approved.json()).toMatchObject({ id: first?.id, status: 'trialing' });

      const stranger = await server().createUser();
      const { access_token } = await signIn(server(), stranger.email, stranger.password);
      const refused = await call(server(), 'GET', `/api/subscription/approve/${first?.id}`, access_token);
      expect(refused.statusCode).toBe(404);
      expect(refused.json().messageKey).toBe('SUBSCRIPTION_NOT_FOUND');
      expect((await call(server(), 'GET', '/api/subscription/user', access_token)).json()).toBeNull();
      // Issue 48 item 10: how a user without a subscription pays is nothing, not a refusal the subscription page
      // (which asks for both at once) would log in the console.
      const method = await call(server(), 'GET', '/api/subscription/payment-method', access_token);
      expect(method.statusCode, method.body).toBe(200);
      expect(method.json()).toBeNull();
    });

    it('the trial is for a first subscription: a returning subscriber’s checkout has none and is charged at once', async () => {
      const first = await server().createUser();
      let { token } = await session(server(), first);
      const plans = await call(server(), 'GET', '/api/paddle/list-plans', token);
      expect(plans.json().map((plan: { trialDays: number | null }) => plan.trialDays)).toEqual([14, 14]);
      const firstCheckout = await call(server(), 'POST', '/api/paddle/checkout', token, { payload: { priceId: PRICE_IDS.monthly } });
      expect(firstCheckout.statusCode, firstCheckout.body).toBe(200);
      expect(firstCheckout.json().trialDays).toBe(14);

      const { user } = await berliner(server());
      ({ token } = await session(server(), user));
      expect((await call(server(), 'POST', '/api/subscription/cancel', token)).statusCode).toBe(200);
      await paddle.travelTo(server(), new Date(TEST_NOW.getTime() + 15 * DAY));
      ({ token } = await session(server(), user));
      expect((await call(server(), 'GET', '/api/subscription/user', token)).json().status).toBe('canceled');
      expect((await call(server(), 'GET', '/api/paddle/list-plans', token)).json().map((plan: { trialDays: number | null }) => plan.trialDays)).toEqual([null, null]);
      // Nor the launch offer: its checkout would not carry it (issue 20: choose-plan never promises what checkout does not give).
      expect((await call(server(), 'GET', '/api/paddle/list-plans', token)).json().map((plan: { offer: unknown }) => plan.offer)).toEqual([null, null]);

      const checkout = await call(server(), 'POST', '/api/paddle/checkout', token, { payload: { priceId: PRICE_IDS.monthly } });
      // Cancelled at the period's end, never refunded: the returning subscriber's purchase is refundable.
      expect(checkout.json()).toEqual({ transactionId: expect.stringMatching(/^txn_/), trialDays: null, discount: null, discountDecision: null, interval: 'month', refundable: true });
      expect((await paddle.pay(checkout.json().transactionId, TEST_CARDS.success)).status).toBe(200);
      await paddle.sandbox.flush();
      const again = (await call(server(), 'GET', '/api/subscription/user', token)).json();
      expect(again).toMatchObject({ status: 'active', interval: 'month', trialEndsAt: null, nextBilledAt: '2027-01-07T10:00:00.000Z' });
      expect((await payments(server(), user.id)).at(-1)).toMatchObject({ origin: 'api', status: 'completed', grandTotal: withVat(1999) });
    });

    it('a second trial got around the portal’s checkout is ended at once by the webhook', async () => {
      const { user, customerId } = await berliner(server());
      let { token } = await session(server(), user);
      expect((await call(server(), 'POST', '/api/subscription/cancel', token)).statusCode).toBe(200);
      await paddle.travelTo(server(), new Date(TEST_NOW.getTime() + 15 * DAY));
      const direct = await paddle.paddle.transactions.create({ items: [{ priceId: PRICE_IDS.monthly, quantity: 1 }], customerId });
      expect((await paddle.pay(direct.id, TEST_CARDS.success)).status).toBe(200);
      ({ token } = await session(server(), user));
      await expect
        .poll(async () => {
          await paddle.sandbox.flush();
          await server().app.inject({ method: 'GET', url: '/api/health' });
          return (await call(server(), 'GET', '/api/subscription/user', token)).json()?.status;
        })
        .toBe('active');
      expect((await payments(server(), user.id)).at(-1)).toMatchObject({ origin: 'subscription_recurring', status: 'completed', grandTotal: 1999 });
    });

    it('a price preview uses the signed-in buyer’s saved address for tax; a visitor’s has none', async () => {
      const { user } = await berliner(server());
      const { token } = await session(server(), user);
      const signedIn = await call(server(), 'POST', '/api/subscription/preload', token, { payload: {} });
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      const monthly = (body: { details: { lineItems: { price: { id: string }; totals: { tax: number } }[] } }) =>
        body.details.lineItems.find((line) => line.price.id === PRICE_IDS.monthly)?.totals.tax;
      expect(monthly(signedIn.json())).toBe(Math.round(1999 * VAT));
      expect(monthly((await call(server(), 'POST', '/api/subscription/preload', undefined, { payload: {} })).json())).toBe(0);
      expect((await call(server(), 'POST', '/api/subscription/preload', 'not-a-token', { payload: {} })).statusCode).toBe(401);
    });

    it('a perpetual release once bought is no longer offered, and cannot be bought again', async () => {
      const { user } = await berliner(server(), { priceId: PRICE_IDS.perpetual2025 });
      const { token } = await session(server(), user);
      const products = (await call(server(), 'GET', '/api/perpetual/products', token)).json() as { prices: { id: string }[] }[];
      expect(products.flatMap((product) => product.prices.map((price) => price.id))).toEqual([PRICE_IDS.perpetual2024]);
      const again = await call(server(), 'POST', '/api/paddle/checkout', token, { payload: { priceId: PRICE_IDS.perpetual2025 }, language: 'de' });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ messageKey: 'PRODUCT_ALREADY_OWNED', message: 'Du besitzt diese Version bereits.' });
      expect((await call(server(), 'POST', '/api/paddle/checkout', token, { payload: { priceId: PRICE_IDS.perpetual2024 } })).statusCode).toBe(200);

      const licences = await call(server(), 'GET', `/api/perpetual/license?UserId=${user.id}&include=transaction`, token);
      expect(licences.statusCode, licences.body).toBe(200);
      expect(licences.json()).toEqual([
        {
          id: expect.stringMatching(/^txn_/),
          licenceId: expect.any(String),
          source: 'purchase',
          purchasedAt: expect.any(String),
          release: '2025',
          updatesUntil: '2026-12-31T23:59:59.999Z',
          items: [{ price: { id: PRICE_IDS.perpetual2025, product_id: expect.stringMatching(/^pro_/) }, quantity: 1 }],
          productName: 'Shapelab 2025',
          invoiceUrl: expect.stringMatching(/^\/api\/subscription\/billing\/invoice\/txn_/),
          returnableUntil: expect.any(String),
          paid: { amount: expect.any(Number), currencyCode: 'USD' },
          refundUsed: false,
          downloads: expect.arrayContaining([expect.objectContaining({ release: '2025', platform: 'windows' })]),
        },
      ]);
      // Only the owner or an admin reads them.
      const stranger = await server().createUser();
      const { token: strangerToken } = await session(server(), stranger);
      expect((await call(server(), 'GET', `/api/perpetual/license?UserId=${user.id}`, strangerToken)).statusCode).toBe(403);
      expect((await call(server(), 'GET', '/api/perpetual/license', strangerToken)).json()).toEqual([]);
      const admin = await server().createUser({ roles: ['user', 'admin'] });
      const { token: adminToken } = await session(server(), admin);
      expect((await call(server(), 'GET', `/api/perpetual/license?UserId=${user.id}`, adminToken)).json()).toHaveLength(1);
    });

    it('a cancellation takes effect when the period ends', async () => {
      const { user } = await berliner(server());
      const { token } = await session(server(), user);
      expect((await call(server(), 'POST', '/api/subscription/cancel', token)).statusCode).toBe(200);
      await paddle.travelTo(server(), new Date(TEST_NOW.getTime() + 14 * DAY + 60_000));
      const { subscription } = await session(server(), user);
      expect(await subscription()).toMatchObject({ status: 'canceled', scheduledChange: null, canceledAt: new Date(TEST_NOW.getTime() + 14 * DAY).toISOString() });
      expect((await payments(server(), user.id)).length).toBe(1);
    });
  },
  () => ({ billing: paddle.billing }),
);
