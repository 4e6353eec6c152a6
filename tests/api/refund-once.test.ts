import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CheckoutResponse, PerpetualLicence } from '../../contract/billing.js';
import type { Subscription } from '../../contract/subscription.js';
import { PRICE_IDS } from '../../server/sandbox/catalogue.js';
import { TEST_CARDS } from '../../server/sandbox/purchases.js';
import { call, startSandbox, strayPaidPlan } from '../fixtures/paddle.js';
import { signIn, TEST_NOW, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * Issue 46 item 1: the 14-day refund is given once per customer and release, and once per customer for the
 * subscription. Measured on main: buy, use 13 days, return, buy again, return again... refunded without end.
 * A purchase after a refunded one is not refundable: the checkout says so before paying, the licences and
 * the subscription after, and the return or cancel-with-refund answers 409 REFUND_ALREADY_USED and changes
 * nothing. An admin's refund from the user page stays possible, logged with the admin.
 */
let paddle: Awaited<ReturnType<typeof startSandbox>>;

beforeAll(async () => {
  paddle = await startSandbox();
});
afterAll(async () => {
  await paddle?.sandbox.close();
});

const DAY = 86_400_000;

async function customer(server: TestServer, roles?: ('user' | 'admin')[]) {
  const user = await server.createUser(roles ? { roles } : {});
  const { access_token: token } = await signIn(server, user.email, user.password);
  const customerId = (await call(server, 'GET', '/api/subscription/paddle/customer', token)).json().id as string;
  return { ...user, token, customerId };
}

/** A checkout the portal opens, paid in the stand-in's checkout; its answer. */
async function buy(server: TestServer, token: string, priceId: string): Promise<CheckoutResponse> {
  const checkout = await call(server, 'POST', '/api/paddle/checkout', token, { payload: { priceId } });
  expect(checkout.statusCode, checkout.body).toBe(200);
  expect((await paddle.pay(checkout.json<CheckoutResponse>().transactionId, TEST_CARDS.success)).status).toBe(200);
  await paddle.settle(server);
  return checkout.json<CheckoutResponse>();
}

async function licences(server: TestServer, token: string): Promise<PerpetualLicence[]> {
  return (await call(server, 'GET', '/api/perpetual/license', token)).json<PerpetualLicence[]>();
}

async function refundRows(server: TestServer, userId: string) {
  return server.db.kysely.selectFrom('refunds').select(['transaction_id', 'reason', 'status']).where('user_id', '=', userId).orderBy('created_at').execute();
}

async function uses(server: TestServer, userId: string) {
  return server.db.kysely.selectFrom('refund_uses').select(['scope', 'used_by']).where('user_id', '=', userId).orderBy('scope').execute();
}

async function subscriptionOf(server: TestServer, token: string): Promise<Subscription> {
  return (await call(server, 'GET', '/api/subscription/user', token)).json<Subscription>();
}

describeEachDatabase(
  'one 14-day refund per customer and release, and for the subscription',
  (server) => {
    beforeAll(() => {
      paddle.deliverTo(server);
    });

    it('a release bought again after a return is not refundable: told before paying and after, and its return is refused and changes nothing', async () => {
      await paddle.travelTo(server(), TEST_NOW);
      const user = await customer(server());
      expect((await buy(server(), user.token, PRICE_IDS.perpetual2025)).refundable).toBe(true);
      await paddle.travelTo(server(), new Date(TEST_NOW.getTime() + 13 * DAY));
      // Thirteen days on, a new sign-in.
      user.token = (await signIn(server(), user.email, user.password)).access_token;
      const [first] = await licences(server(), user.token);
      expect(first).toMatchObject({ release: '2025', refundUsed: false, returnableUntil: expect.any(String) });
      const returned = await call(server(), 'POST', `/api/perpetual/license/${String(first?.licenceId)}/return`, user.token);
      expect(returned.statusCode, returned.body).toBe(200);
      await paddle.settle(server());

      // Before paying: the checkout says this purchase cannot be refunded.
      const again = await buy(server(), user.token, PRICE_IDS.perpetual2025);
      expect(again.refundable).toBe(false);
      // After: the licence is listed without a return, and says why.
      const [second] = await licences(server(), user.token);
      expect(second).toMatchObject({ release: '2025', source: 'purchase', refundUsed: true, returnableUntil: null });
      const before = await refundRows(server(), user.id);
      const refused = await call(server(), 'POST', `/api/perpetual/license/${String(second?.licenceId)}/return`, user.token, { language: 'de' });
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json()).toEqual({ messageKey: 'REFUND_ALREADY_USED', message: expect.stringContaining('schon einmal') });
      // Nothing changed: the licence is live, no refund was recorded, the one use stays the first return's.
      await paddle.settle(server());
      expect((await licences(server(), user.token)).map((licence) => licence.licenceId)).toEqual([second?.licenceId]);
      expect(await refundRows(server(), user.id)).toEqual(before);
      expect(await uses(server(), user.id)).toEqual([{ scope: 'release:2025', used_by: 'customer' }]);
      // Another release is a purchase of its own: its refund is still there.
      expect((await buy(server(), user.token, PRICE_IDS.perpetual2024)).refundable).toBe(true);
      expect((await licences(server(), user.token)).find((licence) => licence.release === '2024')).toMatchObject({ refundUsed: false, returnableUntil: expect.any(String) });
    });

    it('a subscription bought again after a refunded one: no refund offered, told so, and the cancel with refund is refused and ends nothing', async () => {
      await paddle.travelTo(server(), TEST_NOW);
      const user = await customer(server());
      const yearly = await strayPaidPlan(paddle, user.customerId, 'year');
      expect((await paddle.pay(yearly.id, TEST_CARDS.success)).status).toBe(200);
      await paddle.settle(server());
      expect(await subscriptionOf(server(), user.token)).toMatchObject({ status: 'active', refundUsed: false, refund: { amount: { amount: 19990, currencyCode: 'USD' } } });
      const cancelled = await call(server(), 'POST', '/api/subscription/cancel', user.token, { payload: { refund: true, reason: 'too_expensive' } });
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      await paddle.settle(server());

      const checkout = await buy(server(), user.token, PRICE_IDS.monthly);
      // A returning subscriber pays at once (no second trial), and is told the refund was had.
      expect(checkout).toMatchObject({ trialDays: null, refundable: false });
      const current = await subscriptionOf(server(), user.token);
      expect(current).toMatchObject({ status: 'active', interval: 'month', refund: null, refundUsed: true });
      const before = await refundRows(server(), user.id);
      const refused = await call(server(), 'POST', '/api/subscription/cancel', user.token, { payload: { refund: true } });
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().messageKey).toBe('REFUND_ALREADY_USED');
      await paddle.settle(server());
      expect(await subscriptionOf(server(), user.token)).toMatchObject({ id: current.id, status: 'active', scheduledChange: null });
      expect(await refundRows(server(), user.id)).toEqual(before);
      expect(await uses(server(), user.id)).toEqual([{ scope: 'subscription', used_by: 'customer' }]);
      // Cancelling at the end of the period works as ever.
      const plain = await call(server(), 'POST', '/api/subscription/cancel', user.token, { payload: { reason: 'not_using' } });
      expect(plain.statusCode, plain.body).toBe(200);
      expect(plain.json<Subscription>().scheduledChange).toMatchObject({ action: 'cancel' });
    });

    it('two tabs and a retried request asking at once get one refund between them', async () => {
      await paddle.travelTo(server(), TEST_NOW);
      const user = await customer(server());
      await buy(server(), user.token, PRICE_IDS.perpetual2025);
      const [licence] = await licences(server(), user.token);
      const answers = await Promise.all([1, 2, 3].map(() => call(server(), 'POST', `/api/perpetual/license/${String(licence?.licenceId)}/return`, user.token)));
      expect(answers.map((answer) => answer.statusCode).sort(), answers.map((answer) => answer.body).join('\n')).toEqual([200, 404, 404]);
      await paddle.settle(server());

      const subscriber = await customer(server());
      const plan = await strayPaidPlan(paddle, subscriber.customerId, 'month');
      expect((await paddle.pay(plan.id, TEST_CARDS.success)).status).toBe(200);
      await paddle.settle(server());
      const cancels = await Promise.all([1, 2, 3].map(() => call(server(), 'POST', '/api/subscription/cancel', subscriber.token, { payload: { refund: true } })));
      const statuses = cancels.map((answer) => answer.statusCode).sort();
      expect(statuses[0], cancels.map((answer) => answer.body).join('\n')).toBe(200);
      // The others found it used (409) or the subscription ended (404).
      for (const status of statuses.slice(1)) expect([404, 409]).toContain(status);
      await paddle.settle(server());
      expect(await refundRows(server(), subscriber.id)).toEqual([{ transaction_id: plan.id, reason: 'customer', status: 'approved' }]);
      expect(await uses(server(), subscriber.id)).toEqual([{ scope: 'subscription', used_by: 'customer' }]);
    });

    it("an admin's refund from the user page stays possible after the customer's own, logged with the admin; and it uses the customer's when unused", async () => {
      await paddle.travelTo(server(), TEST_NOW);
      const boss = await customer(server(), ['user', 'admin']);
      const user = await customer(server());
      const first = await strayPaidPlan(paddle, user.customerId, 'month');
      expect((await paddle.pay(first.id, TEST_CARDS.success)).status).toBe(200);
      await paddle.settle(server());
      expect((await call(server(), 'POST', '/api/subscription/cancel', user.token, { payload: { refund: true } })).statusCode).toBe(200);
      await paddle.settle(server());
      await buy(server(), user.token, PRICE_IDS.monthly);
      // Support sees the window (the customer's own refund is used) and may refund on their behalf.
      const detail = (await call(server(), 'GET', `/api/users/${user.id}`, boss.token)).json<{ subscription: Subscription }>();
      expect(detail.subscription).toMatchObject({ refundUsed: true, refund: { amount: { amount: 1999, currencyCode: 'USD' } } });
      const byAdmin = await call(server(), 'POST', `/api/users/${user.id}/subscription/cancel`, boss.token, { payload: { refund: true } });
      expect(byAdmin.statusCode, byAdmin.body).toBe(200);
      await paddle.settle(server());
      expect((await refundRows(server(), user.id)).map((refund) => refund.status)).toEqual(['approved', 'approved']);
      const audit = await server()
        .db.kysely.selectFrom('activity_log')
        .select(['actor_id', 'kind'])
        .where('user_id', '=', user.id)
        .where('kind', '=', 'purchase.refunded')
        .orderBy('created_at')
        .execute();
      expect(audit).toEqual([
        { actor_id: user.id, kind: 'purchase.refunded' },
        { actor_id: boss.id, kind: 'purchase.refunded' },
      ]);

      // A customer who had not used theirs: the admin's refund is it.
      const other = await customer(server());
      const plan = await strayPaidPlan(paddle, other.customerId, 'month');
      expect((await paddle.pay(plan.id, TEST_CARDS.success)).status).toBe(200);
      await paddle.settle(server());
      expect((await call(server(), 'POST', `/api/users/${other.id}/subscription/cancel`, boss.token, { payload: { refund: true } })).statusCode).toBe(200);
      await paddle.settle(server());
      expect(await uses(server(), other.id)).toEqual([{ scope: 'subscription', used_by: 'admin' }]);
      expect((await call(server(), 'POST', '/api/paddle/checkout', other.token, { payload: { priceId: PRICE_IDS.yearly } })).json<CheckoutResponse>().refundable).toBe(false);
    });

    it('a refund the portal makes by itself (a duplicate purchase undone) is not the customer’s one', async () => {
      await paddle.travelTo(server(), TEST_NOW);
      const user = await customer(server());
      await buy(server(), user.token, PRICE_IDS.perpetual2024);
      // A second checkout of the same release, opened around the portal and paid: refunded as a duplicate.
      const stray = await paddle.paddle.transactions.create({ items: [{ priceId: PRICE_IDS.perpetual2024, quantity: 1 }], customerId: user.customerId });
      expect((await paddle.pay(stray.id, TEST_CARDS.success)).status).toBe(200);
      await paddle.settle(server());
      expect((await refundRows(server(), user.id)).map((refund) => refund.reason)).toEqual(['duplicate']);
      expect(await uses(server(), user.id)).toEqual([]);
      const [licence] = await licences(server(), user.token);
      expect(licence).toMatchObject({ refundUsed: false, returnableUntil: expect.any(String) });
      expect((await call(server(), 'POST', `/api/perpetual/license/${String(licence?.licenceId)}/return`, user.token)).statusCode).toBe(200);
    });
  },
  () => ({ billing: paddle.billing }),
);
