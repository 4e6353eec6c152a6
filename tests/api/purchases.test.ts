import { afterAll, beforeAll, expect, it } from 'vitest';
import { DISCOUNT_IDS, PRICE_IDS, PRODUCT_IDS } from '../../server/sandbox/catalogue.js';
import { TEST_CARDS } from '../../server/sandbox/purchases.js';
import { entitlementsOf } from '../../server/modules/entitlements/index.js';
import { call, startSandbox } from '../fixtures/paddle.js';
import { signIn, TEST_NOW, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * Money that moves once (issue 16): one open transaction per purchase, one live subscription and one
 * licence per release however many checkouts complete, the upgrade price for owners of the previous
 * release only, one currency per customer, and refunds within 14 days. Through the real SDK against the
 * stand-in; every refund is a Paddle adjustment whose webhooks the portal follows.
 */
let paddle: Awaited<ReturnType<typeof startSandbox>>;

beforeAll(async () => {
  paddle = await startSandbox();
});
afterAll(async () => {
  await paddle?.sandbox.close();
});

const DAY = 86_400_000;

async function customer(server: TestServer, options: { country?: string } = {}) {
  await paddle.travelTo(server, TEST_NOW);
  const user = await server.createUser();
  const { access_token: token } = await signIn(server, user.email, user.password);
  if (options.country) {
    const saved = await call(server, 'PATCH', '/api/users/me', token, { payload: { country: options.country } });
    expect(saved.statusCode, saved.body).toBe(200);
  }
  const customerId = (await call(server, 'GET', '/api/subscription/paddle/customer', token)).json().id as string;
  return { user, token, customerId };
}

/** A checkout the portal opens, paid in the stand-in's checkout as the browser would. */
async function checkoutAndPay(server: TestServer, token: string, body: { priceId: string; discountId?: string }, card: string = TEST_CARDS.success) {
  const checkout = await call(server, 'POST', '/api/paddle/checkout', token, { payload: body });
  expect(checkout.statusCode, checkout.body).toBe(200);
  const paid = await paddle.pay(checkout.json().transactionId, card);
  return { checkout: checkout.json(), paid };
}

/** A checkout opened around the portal (another tab, an old link): a second transaction for the same thing. */
async function strayCheckout(customerId: string, priceId: string) {
  return paddle.paddle.transactions.create({ items: [{ priceId, quantity: 1 }], customerId, customData: { stray: true } });
}

/** A stray checkout of the yearly plan without its trial (as a returning subscriber is sold it): paid at once. */
async function strayPaidYearly(customerId: string) {
  return paddle.paddle.transactions.create({
    items: [
      {
        price: {
          productId: PRODUCT_IDS.subscription,
          description: 'Yearly',
          name: 'Yearly',
          unitPrice: { amount: '19990', currencyCode: 'USD' },
          billingCycle: { interval: 'year', frequency: 1 },
          trialPeriod: null,
          taxMode: 'account_setting',
        },
        quantity: 1,
      },
    ],
    customerId,
  });
}

async function refundsOf(server: TestServer, userId: string) {
  return server.db.kysely.selectFrom('refunds').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
}

async function mailsTo(server: TestServer, email: string) {
  return (await call(server, 'GET', `/api/dev/outbox?to=${encodeURIComponent(email)}`)).json<{ subject: string; text: string }[]>();
}

describeEachDatabase(
  'purchases',
  (server) => {
    beforeAll(() => {
      paddle.deliverTo(server);
    });

    it('a second checkout of the same purchase answers the open transaction, also when four arrive at once', async () => {
      const { token } = await customer(server());
      const first = await call(server(), 'POST', '/api/paddle/checkout', token, { payload: { priceId: PRICE_IDS.monthly } });
      const again = await call(server(), 'POST', '/api/paddle/checkout', token, { payload: { priceId: PRICE_IDS.monthly } });
      expect(again.json().transactionId).toBe(first.json().transactionId);
      // Another price is another purchase: its own transaction.
      const yearly = await call(server(), 'POST', '/api/paddle/checkout', token, { payload: { priceId: PRICE_IDS.yearly } });
      expect(yearly.json().transactionId).not.toBe(first.json().transactionId);

      const other = await customer(server());
      const racing = await Promise.all(
        Array.from({ length: 4 }, () => call(server(), 'POST', '/api/paddle/checkout', other.token, { payload: { priceId: PRICE_IDS.perpetual2025 } })),
      );
      expect(racing.map((response) => response.statusCode)).toEqual([200, 200, 200, 200]);
      expect(new Set(racing.map((response) => response.json().transactionId)).size).toBe(1);

      // Once paid, the transaction is no longer open: the same purchase now is refused as owned.
      await paddle.pay(racing[0]?.json().transactionId, TEST_CARDS.success);
      await paddle.settle(server());
      const after = await call(server(), 'POST', '/api/paddle/checkout', other.token, { payload: { priceId: PRICE_IDS.perpetual2025 } });
      expect(after.json().messageKey).toBe('PRODUCT_ALREADY_OWNED');
    });

    it('a live subscription cannot be bought twice through the portal', async () => {
      const { token } = await customer(server());
      await checkoutAndPay(server(), token, { priceId: PRICE_IDS.monthly });
      await paddle.settle(server());
      const second = await call(server(), 'POST', '/api/paddle/checkout', token, { payload: { priceId: PRICE_IDS.yearly }, language: 'de' });
      expect(second.statusCode).toBe(409);
      expect(second.json()).toEqual({ messageKey: 'SUBSCRIPTION_EXISTS', message: expect.stringContaining('Abonnement') });
    });

    it('two trials from two tabs: the later one is cancelled at once (nothing was paid), not charged as a second trial', async () => {
      const { user, customerId } = await customer(server());
      const tabs = [await strayCheckout(customerId, PRICE_IDS.monthly), await strayCheckout(customerId, PRICE_IDS.monthly)];
      for (const tab of tabs) expect((await paddle.pay(tab.id, TEST_CARDS.success)).status).toBe(200);
      await paddle.settle(server());
      const subscriptions = await server().db.kysely.selectFrom('subscriptions').selectAll().where('user_id', '=', user.id).orderBy('created_at').orderBy('id').execute();
      // The earliest bought (by Paddle's created_at, then id) is kept, in whatever order the webhooks come.
      expect(subscriptions.map((s) => [s.status, s.duplicate_of !== null])).toEqual([
        ['trialing', false],
        ['canceled', true],
      ]);
      const charged = await server().db.kysely.selectFrom('transactions').select('grand_total').where('user_id', '=', user.id).where('grand_total', '>', 0).execute();
      expect(charged).toEqual([]);
      expect(await refundsOf(server(), user.id)).toEqual([]);
    });

    it('two subscriptions paid from two checkouts: the later one is cancelled at once, refunded in full, mailed and audited', async () => {
      const { user, token, customerId } = await customer(server());
      // A returning subscriber pays at once (no second trial): subscribe, cancel, let it end.
      await checkoutAndPay(server(), token, { priceId: PRICE_IDS.monthly });
      await paddle.settle(server());
      await call(server(), 'POST', '/api/subscription/cancel', token);
      await paddle.travelTo(server(), new Date(TEST_NOW.getTime() + 15 * DAY));
      const { access_token: fresh } = await signIn(server(), user.email, user.password);

      // Two tabs: one checkout through the portal, one opened before the first was paid.
      const tab1 = await call(server(), 'POST', '/api/paddle/checkout', fresh, { payload: { priceId: PRICE_IDS.monthly } });
      const tab2 = await strayPaidYearly(customerId);
      expect((await paddle.pay(tab1.json().transactionId, TEST_CARDS.success)).status).toBe(200);
      expect((await paddle.pay(tab2.id, TEST_CARDS.success)).status).toBe(200);
      await paddle.settle(server());

      const subscriptions = await server().db.kysely.selectFrom('subscriptions').selectAll().where('user_id', '=', user.id).orderBy('created_at').execute();
      const live = subscriptions.filter((s) => s.status !== 'canceled');
      expect(live).toHaveLength(1);
      const me = (await call(server(), 'GET', '/api/users/me', fresh)).json();
      expect(me.subscriptionId).toBe(live[0]?.id);
      const extra = subscriptions.find((s) => s.duplicate_of !== null);
      expect(extra).toMatchObject({ status: 'canceled', duplicate_of: live[0]?.id });
      // Its payment was refunded through Paddle's Adjustments API, and the portal followed the webhooks.
      const [refund] = await refundsOf(server(), user.id);
      expect(refund).toMatchObject({ reason: 'duplicate', status: 'approved', subscription_id: extra?.id });
      const adjustments = [];
      for await (const adjustment of paddle.paddle.adjustments.list({ transactionId: [refund?.transaction_id as string] })) adjustments.push(adjustment);
      expect(adjustments).toHaveLength(1);
      expect(adjustments[0]).toMatchObject({ action: 'refund', status: 'approved' });
      const history = (await call(server(), 'GET', '/api/subscription/billing/invoice', fresh)).json();
      expect(history.find((invoice: { id: string }) => invoice.id === refund?.transaction_id).refund).toEqual({ status: 'approved', reason: 'duplicate', amount: Number(refund?.amount) });
      const mails = await mailsTo(server(), user.email);
      expect(mails.filter((mail) => mail.subject.includes('duplicate'))).toHaveLength(1);
      const trail = await server().db.kysely.selectFrom('activity_log').selectAll().where('user_id', '=', user.id).where('kind', '=', 'purchase.duplicate_undone').execute();
      expect(trail).toHaveLength(1);
      // A repeated sweep (a restart) refunds nothing twice.
      await paddle.settle(server());
      expect(await refundsOf(server(), user.id)).toHaveLength(1);
    });

    it('two payments of one release: one licence, the second refunded, the mail in the customer’s language', async () => {
      const { user, token, customerId } = await customer(server());
      await call(server(), 'PATCH', '/api/users/me', token, { payload: { language: 'de' } });
      const tabs = [await strayCheckout(customerId, PRICE_IDS.perpetual2025), await strayCheckout(customerId, PRICE_IDS.perpetual2025)];
      await Promise.all(tabs.map((txn) => paddle.pay(txn.id, TEST_CARDS.success)));
      await paddle.settle(server());
      const licences = (await call(server(), 'GET', '/api/perpetual/license', token)).json();
      expect(licences).toHaveLength(1);
      const [refund] = await refundsOf(server(), user.id);
      expect(refund).toMatchObject({ reason: 'duplicate', status: 'approved', release: '2025', amount: 29900 });
      expect(tabs.map((txn) => txn.id)).toContain(refund?.transaction_id);
      expect(licences[0].id).not.toBe(refund?.transaction_id);
      const [mail] = await mailsTo(server(), user.email);
      expect(mail?.subject).toBe('Wir haben einen doppelten Shapelab-Kauf erstattet');
      expect(mail?.text).toContain('299,00');
    });

    it('the upgrade price: /users/me says who is eligible, the checkout applies it by itself, and refuses it to others', async () => {
      const owner = await customer(server());
      const plain = (await call(server(), 'GET', '/api/users/me', owner.token)).json();
      expect(plain).toMatchObject({ subscriptionId: null, eligibleForDiscountBasedOnPreviousVersion: false });
      // Someone without the 2024 release is refused the upgrade discount.
      const refused = await call(server(), 'POST', '/api/paddle/checkout', owner.token, { payload: { priceId: PRICE_IDS.perpetual2025, discountId: DISCOUNT_IDS.upgrade } });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().messageKey).toBe('DISCOUNT_NOT_ELIGIBLE');

      await checkoutAndPay(server(), owner.token, { priceId: PRICE_IDS.perpetual2024 });
      await paddle.settle(server());
      expect((await call(server(), 'GET', '/api/users/me', owner.token)).json().eligibleForDiscountBasedOnPreviousVersion).toBe(true);
      const products = (await call(server(), 'GET', '/api/perpetual/products', owner.token)).json();
      expect(products).toHaveLength(1);
      expect(products[0]).toMatchObject({ discount: { id: DISCOUNT_IDS.upgrade } });
      // 40% off 299.00.
      expect(products[0].prices[0]).toMatchObject({ unitPrice: { amount: 29900, currencyCode: 'USD' }, upgradePrice: { amount: 17940, currencyCode: 'USD' } });

      const { checkout } = await checkoutAndPay(server(), owner.token, { priceId: PRICE_IDS.perpetual2025 });
      expect(checkout.discount).toEqual({
        recur: false,
        maximumRecurringIntervals: null,
        id: DISCOUNT_IDS.upgrade,
        description: 'Upgrade from Shapelab 2024: 40% off',
        i18n: { en: 'Upgrade from Shapelab 2024: 40% off', de: 'Upgrade von Shapelab 2024: 40 % Rabatt' },
      });
      const transaction = await paddle.paddle.transactions.get(checkout.transactionId);
      expect(transaction.details?.totals?.discount).toBe('11960');
      await paddle.settle(server());
      // Owning both, the discount is no longer theirs.
      expect((await call(server(), 'GET', '/api/users/me', owner.token)).json().eligibleForDiscountBasedOnPreviousVersion).toBe(false);
    });

    it('a code never costs more than the discount already applied: the better one for the buyer is kept, and the answer says which and why', async () => {
      const owner = await customer(server());
      await checkoutAndPay(server(), owner.token, { priceId: PRICE_IDS.perpetual2024 });
      await paddle.settle(server());
      // The owner of 2024 has 40 % off 2025 ($119.60); WELCOME20 would take $59.80 off: the upgrade stays.
      const coded = await call(server(), 'POST', '/api/paddle/checkout', owner.token, { payload: { priceId: PRICE_IDS.perpetual2025, discountId: DISCOUNT_IDS.welcome } });
      expect(coded.statusCode, coded.body).toBe(200);
      expect(coded.json().discount).toMatchObject({ id: DISCOUNT_IDS.upgrade });
      expect(coded.json().discountDecision).toEqual({
        messageKey: 'DISCOUNT_KEPT_BETTER',
        applied: { en: 'Upgrade from Shapelab 2024: 40% off', de: 'Upgrade von Shapelab 2024: 40 % Rabatt' },
        declined: { en: 'Welcome: 20% off', de: 'Willkommen: 20 % Rabatt' },
      });
      const transaction = await paddle.paddle.transactions.get(coded.json().transactionId);
      expect(transaction.discountId).toBe(DISCOUNT_IDS.upgrade);
      expect(transaction.details?.totals?.discount).toBe('11960');
      // Without a second discount there is nothing to decide.
      const plain = await call(server(), 'POST', '/api/paddle/checkout', owner.token, { payload: { priceId: PRICE_IDS.perpetual2025 } });
      expect(plain.json()).toMatchObject({ discount: { id: DISCOUNT_IDS.upgrade }, discountDecision: null });

      // A first subscription's offer (half the first month, $10.00 off) against WELCOME20 (20 % off three
      // months, $12.00 in all): the code saves more and replaces it, and says so.
      const { token } = await customer(server());
      const plan = await call(server(), 'POST', '/api/paddle/checkout', token, { payload: { priceId: PRICE_IDS.monthly, discountId: DISCOUNT_IDS.welcome } });
      expect(plan.json()).toMatchObject({
        discount: { id: DISCOUNT_IDS.welcome },
        discountDecision: { messageKey: 'DISCOUNT_REPLACED_BETTER', applied: { en: 'Welcome: 20% off' }, declined: { en: 'Launch offer: first month half price' } },
      });
      // SAVE10 ($10.00 off once) does not beat the offer (a tie keeps the offer).
      const flat = await call(server(), 'POST', '/api/paddle/checkout', token, { payload: { priceId: PRICE_IDS.monthly, discountId: DISCOUNT_IDS.flat } });
      expect(flat.json()).toMatchObject({ discount: { id: DISCOUNT_IDS.launchMonthly }, discountDecision: { messageKey: 'DISCOUNT_KEPT_BETTER' } });
      expect((await paddle.paddle.transactions.get(flat.json().transactionId)).discountId).toBe(DISCOUNT_IDS.launchMonthly);
    });

    it('a customer in Hungary sees HUF everywhere: plans, products, the checkout transaction', async () => {
      const { token } = await customer(server(), { country: 'HU' });
      const plans = (await call(server(), 'GET', '/api/paddle/list-plans', token)).json();
      expect(plans.map((plan: { unitPrice: { currencyCode: string } }) => plan.unitPrice)).toEqual([
        { amount: 799000, currencyCode: 'HUF' },
        { amount: 7990000, currencyCode: 'HUF' },
      ]);
      const products = (await call(server(), 'GET', '/api/perpetual/products', token)).json();
      expect(products.flatMap((product: { prices: { unitPrice: { currencyCode: string } }[] }) => product.prices.map((price) => price.unitPrice.currencyCode))).toEqual(['HUF', 'HUF']);
      const preload = (await call(server(), 'POST', '/api/subscription/preload', token)).json();
      expect(preload.currencyCode).toBe('HUF');
      const { checkout } = await checkoutAndPay(server(), token, { priceId: PRICE_IDS.perpetual2024 });
      expect((await paddle.paddle.transactions.get(checkout.transactionId)).currencyCode).toBe('HUF');
    });

    it('cancelling within 14 days of the first payment refunds it and ends the subscription now; after 14 days it cannot', async () => {
      const { user, token, customerId } = await customer(server());
      // Pays at once: the yearly plan as a returning subscriber is sold it (no trial).
      const yearly = await strayPaidYearly(customerId);
      await paddle.pay(yearly.id, TEST_CARDS.success);
      await paddle.settle(server());
      const offered = (await call(server(), 'GET', '/api/subscription/user', token)).json();
      expect(offered.refund).toEqual({ until: new Date(TEST_NOW.getTime() + 14 * DAY).toISOString(), amount: { amount: 19990, currencyCode: 'USD' } });
      const cancelled = await call(server(), 'POST', '/api/subscription/cancel', token, { payload: { refund: true } });
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      expect(cancelled.json()).toMatchObject({ status: 'canceled', refund: null });
      await paddle.settle(server());
      expect(await refundsOf(server(), user.id)).toEqual([expect.objectContaining({ reason: 'customer', status: 'approved', amount: 19990 })]);
      expect((await call(server(), 'POST', '/api/subscription/cancel', token, { payload: { refund: true } })).statusCode).toBe(404);

      const late = await customer(server());
      const txn = await strayCheckout(late.customerId, PRICE_IDS.perpetual2024);
      await paddle.pay(txn.id, TEST_CARDS.success);
      await paddle.settle(server());
      const [licence] = (await call(server(), 'GET', '/api/perpetual/license', late.token)).json();
      expect(licence.returnableUntil).toBe(new Date(TEST_NOW.getTime() + 14 * DAY).toISOString());
      await paddle.travelTo(server(), new Date(TEST_NOW.getTime() + 14 * DAY + 60_000));
      const { access_token: lateToken } = await signIn(server(), late.user.email, late.user.password);
      const closed = await call(server(), 'POST', `/api/perpetual/license/${licence.licenceId}/return`, lateToken);
      expect(closed.statusCode).toBe(409);
      expect(closed.json().messageKey).toBe('REFUND_WINDOW_CLOSED');
    });

    it('a licence returned within 14 days: refunded, revoked, its devices beyond the new limit released; only once', async () => {
      const { user, token, customerId } = await customer(server());
      // Two licences: four devices at once (spec section 9).
      await paddle.pay((await strayCheckout(customerId, PRICE_IDS.perpetual2024)).id, TEST_CARDS.success);
      await checkoutAndPay(server(), token, { priceId: PRICE_IDS.perpetual2025 });
      await paddle.settle(server());
      const licence = (await call(server(), 'GET', '/api/perpetual/license', token)).json().find((l: { release: string }) => l.release === '2025');
      for (const [index, computerId] of ['pc-1', 'pc-2', 'pc-3', 'pc-4'].entries()) {
        const activated = await call(server(), 'POST', '/api/desktop/activate', token, { payload: { computerId, name: computerId } });
        expect(activated.statusCode, activated.body).toBe(200);
        // pc-3 and pc-4 were used last.
        await server().db.kysely.updateTable('seats').set({ last_login_at: new Date(TEST_NOW.getTime() + index * 60_000).toISOString() }).where('computer_id', '=', computerId).execute();
      }
      const stranger = await customer(server());
      expect((await call(server(), 'POST', `/api/perpetual/license/${licence.licenceId}/return`, stranger.token)).statusCode).toBe(404);
      const [first, second] = await Promise.all([
        call(server(), 'POST', `/api/perpetual/license/${licence.licenceId}/return`, token),
        call(server(), 'POST', `/api/perpetual/license/${licence.licenceId}/return`, token),
      ]);
      expect([first.statusCode, second.statusCode].sort()).toEqual([200, 404]);
      expect([first, second].find((response) => response.statusCode === 200)?.json()).toEqual({ refund: { amount: expect.any(Number), currencyCode: 'USD' } });
      await paddle.settle(server());
      expect((await call(server(), 'GET', '/api/perpetual/license', token)).json().map((l: { release: string }) => l.release)).toEqual(['2024']);
      const seats = (await call(server(), 'GET', '/api/perpetual/seats', token)).json();
      expect(seats.limit).toBe(2);
      expect(seats.seats.map((seat: { computerId: string }) => seat.computerId).sort()).toEqual(['pc-3', 'pc-4']);
      // A fifth device: still only up to the limit.
      expect((await call(server(), 'POST', '/api/desktop/activate', token, { payload: { computerId: 'pc-5', name: 'pc-5' } })).json().messageKey).toBe('SEAT_LIMIT_REACHED');
      expect(await refundsOf(server(), user.id)).toEqual([expect.objectContaining({ reason: 'customer', status: 'approved', licence_id: licence.licenceId })]);
      // The desktop application is told at its next heartbeat: the 2025 licence no longer entitles.
      const { entitlement } = await entitlementsOf(server().db.kysely, user.id, server().clock.now());
      expect(entitlement.releases).toEqual(['2024']);
    });

    it('every field of /users/me comes from the user’s own rows', async () => {
      const { user, token, customerId } = await customer(server());
      await call(server(), 'PATCH', '/api/users/me', token, { payload: { phone: '+36 30 123 4567', newsletter: true, language: 'de', country: 'HU' } });
      await checkoutAndPay(server(), token, { priceId: PRICE_IDS.monthly });
      await paddle.pay((await strayCheckout(customerId, PRICE_IDS.perpetual2024)).id, TEST_CARDS.success);
      await paddle.settle(server());
      const me = (await call(server(), 'GET', '/api/users/me', token)).json();
      const row = await server().db.kysely.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
      const [subscription] = await server().db.kysely.selectFrom('subscriptions').select('id').where('user_id', '=', user.id).execute();
      expect(me).toEqual({
        id: row.id,
        email: row.email,
        firstName: row.first_name,
        lastName: row.last_name,
        roles: ['user'],
        emailVerified: true,
        subscriptionId: subscription?.id,
        // Owns 2024, not the current 2025 release.
        eligibleForDiscountBasedOnPreviousVersion: true,
        createdAt: row.created_at,
        phone: row.phone,
        newsletter: true,
        language: 'de',
        hasPassword: true,
        country: 'HU',
        couponCode: null,
        googleConnected: false,
        facebookConnected: false,
        twoFactorEnabled: false,
        twoFactorEnrolmentRequired: false,
        permissions: [],
        readOnlyView: null,
      });
      expect(me.subscriptionId).toMatch(/^sub_/);
      expect(row.phone).toBeTruthy();
    });

    it('a returning subscriber is not told of a first-purchase discount the plan copy cannot carry', async () => {
      const { user, token } = await customer(server());
      await server().db.kysely
        .insertInto('subscriptions')
        .values({
          id: `sub_old${user.id.replace(/-/g, '').slice(0, 20)}`,
          customer_id: 'ctm_previous',
          user_id: user.id,
          status: 'canceled',
          price_id: PRICE_IDS.monthly,
          billing_interval: 'month',
          currency_code: 'USD',
          current_period_starts_at: null,
          current_period_ends_at: null,
          next_billed_at: null,
          trial_ends_at: null,
          scheduled_change_action: null,
          scheduled_change_at: null,
          canceled_at: '2025-01-01T00:00:00.000Z',
          created_at: '2025-01-01T00:00:00.000Z',
          last_event_at: '2025-01-01T00:00:00.000Z',
        })
        .execute();
      const checkout = await call(server(), 'POST', '/api/paddle/checkout', token, { payload: { priceId: PRICE_IDS.monthly, discountId: DISCOUNT_IDS.launchMonthly } });
      expect(checkout.json()).toMatchObject({ trialDays: null, discount: null });
      const transaction = await paddle.paddle.transactions.get(checkout.json().transactionId);
      expect(transaction.discountId).toBeNull();
      // A discount that is not restricted to the catalogue price still applies, and is named.
      const coded = await call(server(), 'POST', '/api/paddle/checkout', token, { payload: { priceId: PRICE_IDS.monthly, discountId: DISCOUNT_IDS.welcome } });
      expect(coded.json().discount).toEqual({
        recur: true,
        maximumRecurringIntervals: 3,
        id: DISCOUNT_IDS.welcome,
        description: 'Welcome: 20% off',
        i18n: { en: 'Welcome: 20% off', de: 'Willkommen: 20 % Rabatt' },
      });
      expect((await paddle.paddle.transactions.get(coded.json().transactionId)).details?.totals?.discount).toBe('400');
    });

    it('a coupon for a release already held is refused, not a second licence', async () => {
      const { token } = await customer(server());
      await checkoutAndPay(server(), token, { priceId: PRICE_IDS.perpetual2024 });
      await paddle.settle(server());
      await server().db.kysely
        .insertInto('coupons')
        .values({ code: 'HAVE2024', grant_kind: 'licence', release: '2024', access_days: null, usage_limit: null, expires_at: null, created_at: TEST_NOW.toISOString(), created_by: null })
        .execute();
      const redeemed = await call(server(), 'POST', '/api/coupons/redeem', token, { payload: { code: 'HAVE2024' } });
      expect(redeemed.statusCode).toBe(409);
      expect(redeemed.json().messageKey).toBe('PRODUCT_ALREADY_OWNED');
      expect((await call(server(), 'GET', '/api/perpetual/license', token)).json()).toHaveLength(1);
    });
  },
  () => ({ billing: paddle.billing }),
);
