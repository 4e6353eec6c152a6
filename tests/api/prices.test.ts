import { afterAll, beforeAll, expect, it } from 'vitest';
import { DISCOUNT_IDS, PRICE_IDS } from '../../server/sandbox/catalogue.js';
import { TEST_CARDS } from '../../server/sandbox/purchases.js';
import { call, startSandbox } from '../fixtures/paddle.js';
import { signIn, TEST_NOW, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * Prices a customer understands (issue 20): a discount says how long it lasts (Paddle's `recur` and
 * `maximum_recurring_intervals`) in the catalogue, on choose-plan's plans and on the checkout's answer,
 * and the stand-in charges exactly that: a trial's discounted first payment when it ends, then the
 * regular price; a three-period discount on three payments.
 */
let paddle: Awaited<ReturnType<typeof startSandbox>>;

beforeAll(async () => {
  paddle = await startSandbox();
});
afterAll(async () => {
  await paddle?.sandbox.close();
});

const DAY = 86_400_000;

async function session(server: TestServer) {
  const user = await server.createUser();
  const { access_token: token } = await signIn(server, user.email, user.password);
  return { user, token };
}

/** A new user's trial of the monthly plan bought through the portal's checkout with `discountId`. */
async function trialWith(server: TestServer, discountId: string) {
  await paddle.travelTo(server, TEST_NOW);
  const { user, token } = await session(server);
  const checkout = await call(server, 'POST', '/api/paddle/checkout', token, { payload: { priceId: PRICE_IDS.monthly, discountId } });
  expect(checkout.statusCode, checkout.body).toBe(200);
  const paid = await paddle.pay(checkout.json().transactionId, TEST_CARDS.success);
  expect(paid.status).toBe(200);
  await paddle.sandbox.flush();
  return { user, checkout: checkout.json() };
}

async function chargesOf(server: TestServer, userId: string) {
  const rows = await server.db.kysely.selectFrom('transactions').selectAll().where('user_id', '=', userId).orderBy('last_event_at').execute();
  return rows.map((row) => Number(row.grand_total));
}

describeEachDatabase(
  'prices with their duration',
  (server) => {
    beforeAll(() => {
      paddle.deliverTo(server);
    });

    it('choose-plan’s monthly plan carries its launch offer for a first subscription: its price and that it covers the first payment only', async () => {
      const { token } = await session(server());
      const response = await call(server(), 'GET', '/api/paddle/list-plans', token);
      expect(response.statusCode, response.body).toBe(200);
      const [monthly, yearly] = response.json();
      expect(monthly.offer).toEqual({
        discountId: DISCOUNT_IDS.launchMonthly,
        description: 'Launch offer: first month half price',
        i18n: { en: 'Launch offer: first month half price', de: 'Einführungsangebot: erster Monat zum halben Preis' },
        recur: false,
        maximumRecurringIntervals: null,
        price: { amount: 999, currencyCode: 'USD' },
      });
      // The yearly plan has no offer of its own.
      expect(yearly.offer).toBeNull();
    });

    it('a discount code says how many payments it covers', async () => {
      const response = await call(server(), 'GET', '/api/perpetual/discount-object-by-code/?discountCode=WELCOME20');
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ id: DISCOUNT_IDS.welcome, recur: true, maximumRecurringIntervals: 3 });
      const once = await call(server(), 'GET', '/api/perpetual/discount-object-by-code/?discountCode=SAVE10');
      expect(once.json()).toMatchObject({ recur: false, maximumRecurringIntervals: null });
    });

    it('the launch offer: nothing today, the discounted payment when the trial ends, the regular price a month later', async () => {
      // The page asks for the plan's own discount (its `discount.id`), as checkout-new does.
      const { user, checkout } = await trialWith(server(), DISCOUNT_IDS.launchMonthly);
      expect(checkout).toMatchObject({ trialDays: 14, interval: 'month', discount: { id: DISCOUNT_IDS.launchMonthly, recur: false, maximumRecurringIntervals: null } });
      const trialEnds = TEST_NOW.getTime() + 14 * DAY;
      await paddle.travelTo(server(), new Date(trialEnds + 60_000));
      await paddle.travelTo(server(), new Date(Date.parse('2027-01-06T10:00:00.000Z') + 60_000));
      // No address: no tax. Were the discount kept on every renewal, or dropped at the first, this fails.
      expect(await chargesOf(server(), user.id)).toEqual([0, 999, 1999]);
    });

    it('a discount over three periods takes 20% off the first three payments, then none', async () => {
      const { user, checkout } = await trialWith(server(), DISCOUNT_IDS.welcome);
      expect(checkout.discount).toMatchObject({ id: DISCOUNT_IDS.welcome, recur: true, maximumRecurringIntervals: 3 });
      for (const at of ['2026-12-06T10:01:00.000Z', '2027-01-06T10:01:00.000Z', '2027-02-06T10:01:00.000Z', '2027-03-06T10:01:00.000Z']) {
        await paddle.travelTo(server(), new Date(at));
      }
      expect(await chargesOf(server(), user.id)).toEqual([0, 1599, 1599, 1599, 1999]);
    });
  },
  () => ({ billing: paddle.billing }),
);
