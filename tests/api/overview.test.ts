import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DISCOUNT_IDS, PRICE_IDS } from '../../server/sandbox/catalogue.js';
import { call, PLAN_PRICES, startSandbox } from '../fixtures/paddle.js';
import { signIn, TEST_NOW, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * `GET /users/me/overview`, the account home (issue 20): its entitlement is what the desktop API answers
 * for the same user at the same clock (activate and heartbeat), for a free user, a trial, a subscriber, a
 * licence owner and a coupon user; it holds only the caller's data; without Paddle it still answers.
 */
let paddle: Awaited<ReturnType<typeof startSandbox>>;

beforeAll(async () => {
  paddle = await startSandbox();
});
afterAll(async () => {
  await paddle?.sandbox.close();
});

const DAY = 86_400_000;

async function newUser(server: TestServer, roles: ('user' | 'admin')[] = ['user']) {
  const user = await server.createUser({ roles });
  const { access_token: token } = await signIn(server, user.email, user.password);
  return { ...user, token };
}

const overview = async (server: TestServer, token: string) => {
  const response = await call(server, 'GET', '/api/users/me/overview', token);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

/** What the desktop application is told now: on activating the user's one computer (again), and on its heartbeat. */
async function desktop(server: TestServer, token: string) {
  const activated = await call(server, 'POST', '/api/desktop/activate', token, { payload: { computerId: 'home-pc', name: 'Desk', replace: true } });
  expect(activated.statusCode, activated.body).toBe(200);
  const beat = await call(server, 'POST', '/api/desktop/heartbeat', activated.json().deviceToken, { payload: {} });
  expect(beat.statusCode, beat.body).toBe(200);
  expect(beat.json().entitlement).toEqual(activated.json().entitlement);
  return activated.json().entitlement;
}

/** The home's entitlement, read before and after the desktop's (activating a seat changes no entitlement). */
async function agrees(server: TestServer, token: string) {
  const home = await overview(server, token);
  expect(home.entitlement).toEqual(await desktop(server, token));
  return home;
}

async function couponUser(server: TestServer, days: number) {
  const admin = await newUser(server, ['user', 'admin']);
  const code = `HOME${randomUUID().slice(0, 8)}`.toUpperCase();
  expect((await call(server, 'POST', '/api/coupons', admin.token, { payload: { code, grant: 'access', days } })).statusCode).toBe(200);
  const user = await newUser(server);
  expect((await call(server, 'POST', '/api/coupons/redeem', user.token, { payload: { code } })).statusCode).toBe(200);
  return user;
}

describeEachDatabase(
  'the account overview',
  (server) => {
    beforeAll(async () => {
      paddle.deliverTo(server);
      await paddle.travelTo(server(), TEST_NOW);
    });

    it('answers 401 without a session', async () => {
      const response = await call(server(), 'GET', '/api/users/me/overview');
      expect(response.statusCode).toBe(401);
      expect(response.json().messageKey).toBeTypeOf('string');
    });

    it('a free user: the basic plan, no subscription, two seats, and the desktop API agrees', async () => {
      const { token } = await newUser(server());
      const home = await agrees(server(), token);
      expect(home).toMatchObject({
        entitlement: { plan: 'basic', exportEnabled: false, items: [] },
        subscription: null,
        paymentMethod: null,
        licences: [],
        accessEndsAt: null,
        unavailable: [],
      });
      // The seat the desktop check took is counted.
      expect((await overview(server(), token)).seats).toEqual({ used: 1, limit: 2 });
    });

    it('a licence owner and a coupon user: each licence with its updates, the access with its end; no one sees another’s', async () => {
      const owner = await paddle.buyer(server(), { priceId: PRICE_IDS.perpetual2024 });
      const home = await agrees(server(), owner.token);
      expect(home.entitlement).toMatchObject({ plan: 'perpetual', releases: ['2024'] });
      expect(home.licences).toEqual([
        { kind: 'licence', id: expect.any(String), productName: 'Shapelab 2024', release: '2024', updatesUntil: '2025-12-31T23:59:59.999Z', source: 'purchase' },
      ]);
      expect(home.entitlement.items).toEqual(home.licences);
      expect((await overview(server(), owner.token)).seats).toEqual({ used: 1, limit: 2 });

      const coupon = await couponUser(server(), 30);
      const access = await agrees(server(), coupon.token);
      const endsAt = new Date(server().clock.now().getTime() + 30 * DAY).toISOString();
      expect(access).toMatchObject({ entitlement: { plan: 'access', accessEndsAt: endsAt, items: [{ kind: 'access', endsAt }] }, accessEndsAt: endsAt, licences: [], subscription: null });
      // The owner's licence is not in the coupon user's answer, nor the reverse.
      expect(JSON.stringify(access)).not.toContain(home.licences[0].id);
      expect(JSON.stringify(await overview(server(), owner.token))).not.toContain(endsAt);
    });

    it('a trial, then a subscriber: plan, price, next charge and payment method; the desktop API agrees at every step', async () => {
      const { user } = await paddle.buyer(server(), { priceId: PRICE_IDS.monthly });
      let { access_token: token } = await signIn(server(), user.email, user.password);
      const trial = await agrees(server(), token);
      const trialEnds = new Date(TEST_NOW.getTime() + 14 * DAY).toISOString();
      expect(trial.entitlement).toMatchObject({ plan: 'trial', exportEnabled: true, trialEndsAt: trialEnds });
      expect(trial.entitlement.items).toEqual([
        { kind: 'subscription', status: 'trialing', priceId: PRICE_IDS.monthly, interval: 'month', trialEndsAt: trialEnds, renewsAt: trialEnds, endsAt: null, enabled: true },
      ]);
      expect(trial.subscription).toMatchObject({
        status: 'trialing',
        interval: 'month',
        price: { amount: PLAN_PRICES.month, currencyCode: 'USD' },
        nextCharge: { at: trialEnds, amount: { amount: PLAN_PRICES.month, currencyCode: 'USD' } },
        trialEndsAt: trialEnds,
        endsAt: null,
      });
      expect(trial.paymentMethod).toEqual((await call(server(), 'GET', '/api/subscription/payment-method', token)).json());

      // The trial ends and the first payment is taken: a subscriber.
      await paddle.travelTo(server(), new Date(Date.parse(trialEnds) + DAY));
      await paddle.settle(server());
      ({ access_token: token } = await signIn(server(), user.email, user.password));
      const paid = await agrees(server(), token);
      expect(paid.entitlement).toMatchObject({ plan: 'subscription', exportEnabled: true, trialEndsAt: null });
      expect(paid.subscription).toMatchObject({ status: 'active', trialEndsAt: null, endsAt: null, nextCharge: { amount: { amount: PLAN_PRICES.month, currencyCode: 'USD' } } });
      expect(paid.paymentMethod).toMatchObject({ type: 'card', card: { last4: expect.any(String) } });
      expect(paid.paymentMethod).toEqual((await call(server(), 'GET', '/api/subscription/payment-method', token)).json());

      // Cancelled at the end of the period: it ends on that date and nothing more is charged.
      expect((await call(server(), 'POST', '/api/subscription/cancel', token, { payload: {} })).statusCode).toBe(200);
      const cancelled = await agrees(server(), token);
      expect(cancelled.subscription.nextCharge).toBeNull();
      expect(cancelled.subscription.endsAt).toEqual(expect.any(String));
      expect(cancelled.entitlement.items[0]).toMatchObject({ kind: 'subscription', renewsAt: null, endsAt: cancelled.subscription.endsAt });

      // Another user never sees this subscription.
      const other = await newUser(server());
      const theirs = await overview(server(), other.token);
      expect(theirs.subscription).toBeNull();
      expect(JSON.stringify(theirs)).not.toContain(user.id);
    });

    it('the next charge is what Paddle will take: less a discount while it runs (20 % off three payments), then the full price', async () => {
      const { user } = await paddle.buyer(server(), { priceId: PRICE_IDS.monthly, discountId: DISCOUNT_IDS.welcome });
      const discounted = { amount: Math.round(PLAN_PRICES.month * 0.8), currencyCode: 'USD' };
      // Signed in afresh each time: the clock moves past the access token's life.
      const nextCharge = async () => {
        const { access_token: token } = await signIn(server(), user.email, user.password);
        return (await overview(server(), token)).subscription.nextCharge as { at: string; amount: unknown };
      };
      // The trial's checkout took nothing off; its first payment is the first of the three.
      expect((await nextCharge()).amount).toEqual(discounted);
      for (let payment = 1; payment <= 3; payment += 1) {
        await paddle.travelTo(server(), new Date(Date.parse((await nextCharge()).at) + 60_000));
        await paddle.settle(server());
        expect((await nextCharge()).amount, `after payment ${payment}`).toEqual(payment < 3 ? discounted : { amount: PLAN_PRICES.month, currencyCode: 'USD' });
      }
    });
  },
  () => ({ billing: paddle.billing }),
);

describeEachDatabase('the account overview without the payment provider', (server) => {
  it('answers what the database knows and names the parts Paddle would have given, never a 5xx', async () => {
    const { id, token } = await newUser(server());
    const trialEnds = new Date(server().clock.now().getTime() + 14 * DAY).toISOString();
    const now = server().clock.now().toISOString();
    await server()
      .db.kysely.insertInto('subscriptions')
      .values({
        id: `sub_${randomUUID().replaceAll('-', '')}`,
        customer_id: 'ctm_test',
        user_id: id,
        status: 'trialing',
        price_id: PRICE_IDS.yearly,
        billing_interval: 'year',
        currency_code: 'USD',
        current_period_starts_at: now,
        current_period_ends_at: trialEnds,
        next_billed_at: trialEnds,
        trial_ends_at: trialEnds,
        scheduled_change_action: null,
        scheduled_change_at: null,
        canceled_at: null,
        created_at: now,
        last_event_at: now,
      })
      .execute();
    const home = await agrees(server(), token);
    expect(home).toMatchObject({
      entitlement: { plan: 'trial', trialEndsAt: trialEnds },
      subscription: { status: 'trialing', interval: 'year', price: null, nextCharge: { at: trialEnds, amount: null } },
      paymentMethod: null,
      unavailable: ['nextCharge', 'paymentMethod', 'price'],
    });
  });
});
