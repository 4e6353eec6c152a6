import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PerpetualLicence } from '../../contract/billing.js';
import type { Subscription } from '../../contract/subscription.js';
import type { AdminUserDetail, ListUsersResponse } from '../../contract/users.js';
import { entitlementsOf } from '../../server/modules/entitlements/index.js';
import { PRICE_IDS } from '../../server/sandbox/catalogue.js';
import { TEST_CARDS } from '../../server/sandbox/purchases.js';
import { call, startSandbox, strayPaidPlan } from '../fixtures/paddle.js';
import { signIn, TEST_NOW, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * Issue 46 item 9: Paddle's adjustment with action `chargeback` takes back what the payment bought: a
 * licence is revoked and the devices above the new limit released; a subscription payment ends the
 * subscription at once (and its access). The user is marked on the admin grid and user page, the timeline
 * says so, and the payment's 14-day refund counts as had. The stand-in raises one in development.
 */
let paddle: Awaited<ReturnType<typeof startSandbox>>;

beforeAll(async () => {
  paddle = await startSandbox();
});
afterAll(async () => {
  await paddle?.sandbox.close();
});

async function customer(server: TestServer, roles?: ('user' | 'admin')[]) {
  const user = await server.createUser(roles ? { roles } : {});
  const { access_token: token } = await signIn(server, user.email, user.password);
  const customerId = (await call(server, 'GET', '/api/subscription/paddle/customer', token)).json().id as string;
  return { ...user, token, customerId };
}

async function detailOf(server: TestServer, token: string, userId: string): Promise<AdminUserDetail> {
  return (await call(server, 'GET', `/api/users/${userId}`, token)).json<AdminUserDetail>();
}

async function gridRowOf(server: TestServer, token: string, email: string) {
  return (await call(server, 'GET', `/api/users?q=${encodeURIComponent(email)}`, token)).json<ListUsersResponse>().data.find((row) => row.email === email);
}

describeEachDatabase(
  'chargebacks',
  (server) => {
    beforeAll(() => {
      paddle.deliverTo(server);
    });

    it('a licence charged back is revoked, its devices above the new limit released, the user marked and the timeline told; once however often Paddle says so', async () => {
      await paddle.travelTo(server(), TEST_NOW);
      const boss = await customer(server(), ['user', 'admin']);
      const user = await customer(server());
      for (const priceId of [PRICE_IDS.perpetual2024, PRICE_IDS.perpetual2025]) {
        const checkout = await call(server(), 'POST', '/api/paddle/checkout', user.token, { payload: { priceId } });
        expect((await paddle.pay(checkout.json<{ transactionId: string }>().transactionId, TEST_CARDS.success)).status).toBe(200);
        // 2024 owned (its webhook landed) before 2025's checkout is priced: the upgrade price.
        await paddle.settle(server());
      }
      for (const pc of ['pc-1', 'pc-2', 'pc-3', 'pc-4']) {
        expect((await call(server(), 'POST', '/api/desktop/activate', user.token, { payload: { computerId: pc, name: pc } })).statusCode).toBe(200);
      }
      expect((await gridRowOf(server(), boss.token, user.email))?.chargeback).toBe(false);
      // 2025 was bought at the upgrade price (40% off for an owner of 2024).
      const bought2025 = (await call(server(), 'GET', '/api/perpetual/license', user.token)).json<PerpetualLicence[]>().find((licence) => licence.release === '2025');

      // Raised in development through the stand-in (staff only), delivered twice, newest first.
      expect((await call(server(), 'POST', '/api/dev/chargeback', user.token, { payload: { transactionId: String(bought2025?.id) } })).statusCode).toBe(403);
      paddle.sandbox.setDelivery('chaotic');
      try {
        const raised = await call(server(), 'POST', '/api/dev/chargeback', boss.token, { payload: { transactionId: String(bought2025?.id) } });
        expect(raised.statusCode, raised.body).toBe(200);
        await paddle.settle(server());
      } finally {
        paddle.sandbox.setDelivery('ordered');
      }
      await paddle.settle(server());
      expect((await call(server(), 'GET', '/api/perpetual/license', user.token)).json<PerpetualLicence[]>().map((licence) => licence.release)).toEqual(['2024']);
      const seats = (await call(server(), 'GET', '/api/perpetual/seats', user.token)).json<{ limit: number; seats: unknown[] }>();
      expect({ limit: seats.limit, held: seats.seats.length }).toEqual({ limit: 2, held: 2 });
      expect((await entitlementsOf(server().db.kysely, user.id, server().clock.now())).entitlement.releases).toEqual(['2024']);
      expect((await gridRowOf(server(), boss.token, user.email))?.chargeback).toBe(true);
      const detail = await detailOf(server(), boss.token, user.id);
      expect(detail.user.chargeback).toBe(true);
      expect(detail.chargebacks).toEqual([{ transactionId: bought2025?.id, subscriptionId: null, amount: { amount: 17940, currencyCode: 'USD' }, createdAt: expect.any(String), reversedAt: null }]);
      const entries = await server().db.kysely.selectFrom('activity_log').select(['kind', 'details']).where('user_id', '=', user.id).where('kind', '=', 'purchase.chargeback').execute();
      expect(entries).toHaveLength(1);
      expect(JSON.parse(String(entries[0]?.details))).toMatchObject({ releases: ['2025'], seatsReleased: 2, amount: 17940, currencyCode: 'USD' });
      // The money went back once: buying 2025 again is a purchase without a refund.
      expect((await call(server(), 'POST', '/api/paddle/checkout', user.token, { payload: { priceId: PRICE_IDS.perpetual2025 } })).json<{ refundable: boolean }>().refundable).toBe(false);

      // The bank gives it back after a dispute: the mark is lifted; nothing is granted again by itself.
      expect((await call(server(), 'POST', '/api/dev/chargeback', boss.token, { payload: { transactionId: String(bought2025?.id), reverse: true } })).statusCode).toBe(200);
      await paddle.settle(server());
      expect((await gridRowOf(server(), boss.token, user.email))?.chargeback).toBe(false);
      expect((await detailOf(server(), boss.token, user.id)).chargebacks[0]?.reversedAt).toEqual(expect.any(String));
      // A payment that cannot be charged back is refused, not a 500.
      const again = await call(server(), 'POST', '/api/dev/chargeback', boss.token, { payload: { transactionId: 'txn_nosuchpayment' } });
      expect(again.statusCode).toBe(409);
      expect(again.json().messageKey).toBe('CHARGEBACK_NOT_POSSIBLE');
    });

    it('a subscription payment charged back ends the subscription at once, and its access', async () => {
      await paddle.travelTo(server(), TEST_NOW);
      const boss = await customer(server(), ['user', 'admin']);
      const user = await customer(server());
      const plan = await strayPaidPlan(paddle, user.customerId, 'year');
      expect((await paddle.pay(plan.id, TEST_CARDS.success)).status).toBe(200);
      await paddle.settle(server());
      expect((await entitlementsOf(server().db.kysely, user.id, server().clock.now())).entitlement.plan).toBe('subscription');
      expect((await paddle.chargeback(plan.id)).status).toBe(200);
      await paddle.settle(server());
      expect((await call(server(), 'GET', '/api/subscription/user', user.token)).json<Subscription>()).toMatchObject({ status: 'canceled', refundUsed: true, refund: null });
      expect((await entitlementsOf(server().db.kysely, user.id, server().clock.now())).entitlement.plan).toBe('basic');
      const detail = await detailOf(server(), boss.token, user.id);
      expect(detail.user.chargeback).toBe(true);
      expect(detail.chargebacks[0]).toMatchObject({ transactionId: plan.id, subscriptionId: expect.stringMatching(/^sub_/) });
    });
  },
  () => ({ billing: paddle.billing }),
);
