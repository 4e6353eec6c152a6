import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Plan, PreloadResponse } from '../../contract/billing.js';
import type { Overview } from '../../contract/overview.js';
import type { PlanChangePreview } from '../../contract/subscription.js';
import { PRICE_IDS } from '../../server/sandbox/catalogue.js';
import { TEST_CARDS } from '../../server/sandbox/purchases.js';
import { call, PLAN_PRICES, startSandbox, strayPaidPlan } from '../fixtures/paddle.js';
import { signIn, TEST_NOW, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * Issue 46 item 2: a subscription's currency is fixed. Measured on main: a USD subscriber who saves a
 * Hungarian billing address saw HUF on choose-plan ("Switch to monthly HUF 7,990") while the subscription,
 * the home and a switch charged USD. Every plan price shown to a subscriber is in the subscription's
 * currency; the new address changes the tax, not the currency. Without a subscription the address decides.
 */
let paddle: Awaited<ReturnType<typeof startSandbox>>;

beforeAll(async () => {
  paddle = await startSandbox();
});
afterAll(async () => {
  await paddle?.sandbox.close();
});

async function customer(server: TestServer) {
  const user = await server.createUser();
  const { access_token: token } = await signIn(server, user.email, user.password);
  const customerId = (await call(server, 'GET', '/api/subscription/paddle/customer', token)).json().id as string;
  return { ...user, token, customerId };
}

async function moveToHungary(server: TestServer, token: string) {
  const saved = await call(server, 'PATCH', '/api/subscription/billing-info', token, { payload: { country: 'HU', company: null, vatNumber: null } });
  expect(saved.statusCode, saved.body).toBe(200);
}

const plansOf = async (server: TestServer, token: string) => (await call(server, 'GET', '/api/paddle/list-plans', token)).json<Plan[]>();

describeEachDatabase(
  "a subscription's currency",
  (server) => {
    beforeAll(() => {
      paddle.deliverTo(server);
    });

    it('a USD subscriber who saves a Hungarian address sees every plan price in USD, taxed as in Hungary', async () => {
      await paddle.travelTo(server(), TEST_NOW);
      const user = await customer(server());
      const yearly = await strayPaidPlan(paddle, user.customerId, 'year');
      expect((await paddle.pay(yearly.id, TEST_CARDS.success)).status).toBe(200);
      await paddle.settle(server());
      await moveToHungary(server(), user.token);

      // Choose-plan (and the subscription page, which reads the same plans): both plans in USD.
      const plans = await plansOf(server(), user.token);
      expect(plans.map((plan) => [plan.interval, plan.unitPrice])).toEqual([
        ['month', { amount: PLAN_PRICES.month, currencyCode: 'USD' }],
        ['year', { amount: PLAN_PRICES.year, currencyCode: 'USD' }],
      ]);
      // The checkout page's preview of the plans: USD, with Hungary's 27% VAT.
      const preload = (await call(server(), 'POST', '/api/subscription/preload', user.token, { payload: {} })).json<PreloadResponse>();
      expect(preload.currencyCode).toBe('USD');
      expect(preload.details.lineItems.find((line) => line.price.id === PRICE_IDS.monthly)?.totals).toMatchObject({ subtotal: 1999, tax: 540, total: 2539 });
      // The home: the plan's price in USD.
      const overview = (await call(server(), 'GET', '/api/users/me/overview', user.token)).json<Overview>();
      expect(overview.subscription?.price).toEqual({ amount: PLAN_PRICES.year, currencyCode: 'USD' });
      // The switch preview (Paddle's, for the subscription): USD.
      const preview = await call(server(), 'POST', '/api/subscription/change/preview', user.token, { payload: { interval: 'month' } });
      expect(preview.statusCode, preview.body).toBe(200);
      expect(preview.json<PlanChangePreview>().charge.currencyCode).toBe('USD');
    });

    it('without a live subscription the address decides, as before: HUF in Hungary, and after a subscription has ended', async () => {
      await paddle.travelTo(server(), TEST_NOW);
      const newcomer = await customer(server());
      await moveToHungary(server(), newcomer.token);
      expect((await plansOf(server(), newcomer.token)).map((plan) => plan.unitPrice.currencyCode)).toEqual(['HUF', 'HUF']);

      const former = await customer(server());
      const plan = await strayPaidPlan(paddle, former.customerId, 'month');
      expect((await paddle.pay(plan.id, TEST_CARDS.success)).status).toBe(200);
      await paddle.settle(server());
      expect((await call(server(), 'POST', '/api/subscription/cancel', former.token, { payload: { refund: true } })).statusCode).toBe(200);
      await paddle.settle(server());
      await moveToHungary(server(), former.token);
      expect((await plansOf(server(), former.token)).map((entry) => entry.unitPrice.currencyCode)).toEqual(['HUF', 'HUF']);
    });
  },
  () => ({ billing: paddle.billing }),
);
