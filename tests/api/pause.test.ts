import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Subscription } from '../../contract/subscription.js';
import { entitlementsOf } from '../../server/modules/entitlements/index.js';
import { PRICE_IDS } from '../../server/sandbox/catalogue.js';
import { TEST_CARDS } from '../../server/sandbox/purchases.js';
import { call, startSandbox, strayPaidPlan } from '../fixtures/paddle.js';
import { signIn, TEST_NOW, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * Issue 46 item 7, Paddle's scheduled pause: `POST /subscription/pause { resumeAt? }` pauses at the end of the
 * paid period, until the date or until `POST /subscription/resume`; the desktop entitlement ends while
 * paused; resuming starts a new billing period, charged then. A trial cannot pause.
 */
let paddle: Awaited<ReturnType<typeof startSandbox>>;

beforeAll(async () => {
  paddle = await startSandbox();
});
afterAll(async () => {
  await paddle?.sandbox.close();
});

const MINUTE = 60_000;
const DAY = 86_400_000;
const RENEWAL = Date.parse('2026-12-22T10:00:00.000Z');
const iso = (time: number) => new Date(time).toISOString();

interface Customer {
  id: string;
  email: string;
  password: string;
  token: string;
}

async function subscriber(server: TestServer, card: string = TEST_CARDS.success): Promise<Customer> {
  await paddle.travelTo(server, TEST_NOW);
  const user = await server.createUser();
  const { access_token: token } = await signIn(server, user.email, user.password);
  const customerId = (await call(server, 'GET', '/api/subscription/paddle/customer', token)).json().id as string;
  const plan = await strayPaidPlan(paddle, customerId, 'month');
  expect((await paddle.pay(plan.id, card)).status).toBe(200);
  await paddle.settle(server);
  return { ...user, token };
}

async function at(server: TestServer, user: Customer, time: number) {
  await paddle.travelTo(server, new Date(time));
  await paddle.settle(server);
  user.token = (await signIn(server, user.email, user.password)).access_token;
}

const post = (server: TestServer, user: Customer, path: string, payload?: object, language = 'en') => call(server, 'POST', `/api/subscription/${path}`, user.token, { language, ...(payload ? { payload } : {}) });
const current = async (server: TestServer, user: Customer) => (await call(server, 'GET', '/api/subscription/user', user.token)).json<Subscription>();
const plan = async (server: TestServer, user: Customer) => (await entitlementsOf(server.db.kysely, user.id, server.clock.now())).entitlement.plan;
const charges = async (server: TestServer, user: Customer) =>
  (await server.db.kysely.selectFrom('transactions').select(['grand_total', 'status']).where('user_id', '=', user.id).where('status', '=', 'completed').orderBy('created_at').execute()).map((row) =>
    Number(row.grand_total),
  );

describeEachDatabase(
  "Paddle's scheduled pause",
  (server) => {
    beforeAll(() => {
      paddle.deliverTo(server);
    });

    it('pauses at the end of the paid period until the date asked for: no access and no charge meanwhile, then a new period, charged', async () => {
      const user = await subscriber(server());
      const resumeAt = RENEWAL + 30 * DAY;
      const paused = await post(server(), user, 'pause', { resumeAt: iso(resumeAt) });
      expect(paused.statusCode, paused.body).toBe(200);
      expect(paused.json<Subscription>()).toMatchObject({
        status: 'active',
        pause: { startsAt: iso(RENEWAL), resumesAt: iso(resumeAt) },
        scheduledChange: { action: 'pause', effectiveAt: iso(RENEWAL) },
      });
      // Paid until then: access as before.
      expect(await plan(server(), user)).toBe('subscription');

      await at(server(), user, RENEWAL + MINUTE);
      expect(await current(server(), user)).toMatchObject({ status: 'paused', nextBilledAt: null, pause: { startsAt: iso(RENEWAL), resumesAt: iso(resumeAt) } });
      expect(await plan(server(), user)).toBe('basic');
      expect(await charges(server(), user)).toEqual([1999]);

      await at(server(), user, resumeAt + MINUTE);
      expect(await current(server(), user)).toMatchObject({ status: 'active', pause: null, currentPeriod: { startsAt: iso(resumeAt) }, nextBilledAt: '2027-02-21T10:00:00.000Z' });
      expect(await plan(server(), user)).toBe('subscription');
      expect(await charges(server(), user)).toEqual([1999, 1999]);
      const kinds = await server().db.kysely.selectFrom('activity_log').select('kind').where('user_id', '=', user.id).where('kind', 'like', 'subscription.pa%').execute();
      expect(kinds.map((entry) => entry.kind)).toEqual(['subscription.paused']);
    });

    it('an open pause ends when the customer resumes (charged now); a scheduled one is withdrawn and the plan renews as before', async () => {
      const open = await subscriber(server());
      const scheduled = await subscriber(server());
      expect((await post(server(), open, 'pause')).json<Subscription>().pause).toEqual({ startsAt: iso(RENEWAL), resumesAt: null });
      expect((await post(server(), scheduled, 'pause')).statusCode).toBe(200);
      const withdrawn = await post(server(), scheduled, 'resume');
      expect(withdrawn.statusCode, withdrawn.body).toBe(200);
      expect(withdrawn.json<Subscription>()).toMatchObject({ status: 'active', pause: null, scheduledChange: null, nextBilledAt: iso(RENEWAL) });

      await at(server(), open, RENEWAL + 10 * DAY);
      expect(await current(server(), open)).toMatchObject({ status: 'paused' });
      const resumed = await post(server(), open, 'resume');
      expect(resumed.statusCode, resumed.body).toBe(200);
      await paddle.settle(server());
      expect(await current(server(), open)).toMatchObject({ status: 'active', pause: null, currentPeriod: { startsAt: iso(RENEWAL + 10 * DAY) } });
      expect(await charges(server(), open)).toEqual([1999, 1999]);
      // The withdrawn one renewed on its day.
      await at(server(), scheduled, RENEWAL + 10 * DAY);
      expect(await charges(server(), scheduled)).toEqual([1999, 1999]);
      expect(await plan(server(), scheduled)).toBe('subscription');
    });

    it('refuses what cannot pause or resume, in the reader’s language, and changes nothing', async () => {
      // A trial cannot pause.
      await paddle.travelTo(server(), TEST_NOW);
      const trialUser = await server().createUser();
      const trial: Customer = { ...trialUser, token: (await signIn(server(), trialUser.email, trialUser.password)).access_token };
      const checkout = await call(server(), 'POST', '/api/paddle/checkout', trial.token, { payload: { priceId: PRICE_IDS.monthly } });
      expect((await paddle.pay(checkout.json<{ transactionId: string }>().transactionId, TEST_CARDS.success)).status).toBe(200);
      await paddle.settle(server());
      const inTrial = await post(server(), trial, 'pause', undefined, 'de');
      expect(inTrial.statusCode).toBe(409);
      expect(inTrial.json()).toEqual({ messageKey: 'PAUSE_NOT_IN_TRIAL', message: expect.stringContaining('Testzeitraum') });

      const user = await subscriber(server());
      for (const resumeAt of [iso(RENEWAL - DAY), iso(RENEWAL), iso(RENEWAL + 400 * DAY)]) {
        const refused = await post(server(), user, 'pause', { resumeAt });
        expect(refused.statusCode, resumeAt).toBe(400);
        expect(refused.json().messageKey).toBe('PAUSE_RESUME_DATE_INVALID');
      }
      expect((await post(server(), user, 'pause', { resumeAt: 'next tuesday' })).statusCode).toBe(400);
      expect((await post(server(), user, 'resume')).json().messageKey).toBe('SUBSCRIPTION_NOT_PAUSED');
      expect((await post(server(), user, 'pause')).statusCode).toBe(200);
      expect((await post(server(), user, 'pause')).json().messageKey).toBe('SUBSCRIPTION_CHANGE_PENDING');
      expect((await post(server(), user, 'change', { interval: 'year' })).json().messageKey).toBe('SUBSCRIPTION_CHANGE_PENDING');
      // In the 30 minutes before the period ends, the scheduled pause stays as it is.
      await at(server(), user, RENEWAL - 10 * MINUTE);
      expect((await post(server(), user, 'resume')).json().messageKey).toBe('SUBSCRIPTION_LOCKED');

      // A payment overdue: the card is updated first.
      const owing = await subscriber(server(), TEST_CARDS.failsLater);
      await at(server(), owing, RENEWAL + MINUTE);
      expect(await current(server(), owing)).toMatchObject({ status: 'past_due' });
      expect((await post(server(), owing, 'pause')).json().messageKey).toBe('SUBSCRIPTION_PAST_DUE');
    });

    it('a paused subscription cancelled ends at once; a scheduled pause gives way to the cancellation', async () => {
      const paused = await subscriber(server());
      const scheduled = await subscriber(server());
      expect((await post(server(), paused, 'pause')).statusCode).toBe(200);
      expect((await post(server(), scheduled, 'pause')).statusCode).toBe(200);
      const cancelled = await post(server(), scheduled, 'cancel', { reason: 'not_using' });
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      expect(cancelled.json<Subscription>()).toMatchObject({ status: 'active', pause: null, scheduledChange: { action: 'cancel', effectiveAt: iso(RENEWAL) } });

      await at(server(), paused, RENEWAL + DAY);
      const ended = await post(server(), paused, 'cancel', { reason: 'too_expensive', comment: 'back next season' });
      expect(ended.statusCode, ended.body).toBe(200);
      expect(ended.json<Subscription>()).toMatchObject({ status: 'canceled' });
      const reasons = await server().db.kysely.selectFrom('cancellations').select(['reason', 'comment', 'refund']).where('user_id', '=', paused.id).execute();
      expect(reasons).toEqual([{ reason: 'too_expensive', comment: 'back next season', refund: 0 }]);
    });
  },
  () => ({ billing: paddle.billing }),
);
