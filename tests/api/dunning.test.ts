import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Overview } from '../../contract/overview.js';
import type { Retention } from '../../contract/retention.js';
import type { Subscription } from '../../contract/subscription.js';
import type { AdminUserDetail } from '../../contract/users.js';
import { entitlementsOf } from '../../server/modules/entitlements/index.js';
import { TEST_CARDS } from '../../server/sandbox/purchases.js';
import { call, startSandbox, strayPaidPlan } from '../fixtures/paddle.js';
import { signIn, TEST_NOW, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * Issue 46 item 5: failed payments, mended, as Paddle runs its dunning. Card 4000 0000 0000 0341 pays when
 * saved and is declined on every later charge: the renewal fails, the subscription is past due, the
 * customer is mailed (amount, what happens next, a link to update the card), the pages say when Paddle
 * tries again (1, 3, 5 and 7 days after the first failure), a last notice goes out a day before the last
 * try, and when that fails the subscription ends (access too) and the renewal counts as lost. A new card
 * settles the open payment at once: active again, counted recovered. Access while Paddle retries: kept.
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
/** The monthly plan paid at TEST_NOW renews a month later. */
const RENEWAL = Date.parse('2026-12-22T10:00:00.000Z');

interface Customer {
  id: string;
  email: string;
  password: string;
  token: string;
  customerId: string;
}

/** A customer whose monthly plan was paid at TEST_NOW on `card` (declined on later charges for `failsLater`). */
async function subscriber(server: TestServer, language: 'en' | 'de' = 'en', card: string = TEST_CARDS.failsLater): Promise<Customer> {
  await paddle.travelTo(server, TEST_NOW);
  const user = await server.createUser();
  const { access_token: token } = await signIn(server, user.email, user.password);
  if (language === 'de') expect((await call(server, 'PATCH', '/api/users/me', token, { payload: { language: 'de' } })).statusCode).toBe(200);
  const customerId = (await call(server, 'GET', '/api/subscription/paddle/customer', token)).json().id as string;
  const plan = await strayPaidPlan(paddle, customerId, 'month');
  expect((await paddle.pay(plan.id, card)).status).toBe(200);
  await paddle.settle(server);
  return { ...user, token, customerId };
}

/** Both clocks to `at`, Paddle's retries and the portal's jobs run, and a fresh sign-in. */
async function at(server: TestServer, user: Customer, time: number): Promise<void> {
  await paddle.travelTo(server, new Date(time));
  await paddle.settle(server);
  user.token = (await signIn(server, user.email, user.password)).access_token;
}

async function subscriptionOf(server: TestServer, user: Customer): Promise<Subscription> {
  return (await call(server, 'GET', '/api/subscription/user', user.token)).json<Subscription>();
}

async function mailsTo(server: TestServer, email: string) {
  return (await call(server, 'GET', `/api/dev/outbox?to=${encodeURIComponent(email)}`)).json<{ subject: string; text: string }[]>();
}

async function recoveries(server: TestServer, userId: string) {
  return server.db.kysely.selectFrom('payment_recoveries').select(['outcome', 'attempts', 'amount', 'first_mail_at', 'final_mail_at']).where('user_id', '=', userId).execute();
}

const iso = (time: number) => new Date(time).toISOString();
const longDate = (time: number, language: string) => new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(time));

describeEachDatabase(
  'failed renewals, mended',
  (server) => {
    beforeAll(() => {
      paddle.deliverTo(server);
    });

    it('a declined renewal: past due with access kept, mailed, retried on schedule, a last notice, then cancelled and counted lost', async () => {
      const user = await subscriber(server());
      await at(server(), user, RENEWAL + MINUTE);
      const pastDue = { amount: { amount: 1999, currencyCode: 'USD' }, since: iso(RENEWAL), nextRetryAt: iso(RENEWAL + DAY), endsAt: iso(RENEWAL + 7 * DAY) };
      expect(await subscriptionOf(server(), user)).toMatchObject({ status: 'past_due', pastDue });
      // The home says when Paddle tries again; support sees it on the user page.
      expect((await call(server(), 'GET', '/api/users/me/overview', user.token)).json<Overview>().subscription).toMatchObject({ status: 'past_due', pastDue });
      const boss = await server().createUser({ roles: ['user', 'admin'] });
      const bossToken = (await signIn(server(), boss.email, boss.password)).access_token;
      expect((await call(server(), 'GET', `/api/users/${user.id}`, bossToken)).json<AdminUserDetail>().subscription).toMatchObject({ status: 'past_due', pastDue });
      // The stated policy: access stays while Paddle retries.
      expect((await entitlementsOf(server().db.kysely, user.id, server().clock.now())).entitlement.plan).toBe('subscription');
      const [failed] = await mailsTo(server(), user.email);
      expect(failed?.subject).toBe('Your Shapelab payment did not go through');
      expect(failed?.text).toContain('$19.99');
      expect(failed?.text).toContain(`We try the card again on ${longDate(RENEWAL + DAY, 'en')}`);
      expect(failed?.text).toContain(`by ${longDate(RENEWAL + 7 * DAY, 'en')}, your subscription ends`);
      expect(failed?.text).toContain('http://localhost:3000/en/account/payment-options');

      // Day 1 and day 3: Paddle tries again and fails; the next try moves on. No second mail.
      await at(server(), user, RENEWAL + DAY + MINUTE);
      expect((await subscriptionOf(server(), user)).pastDue?.nextRetryAt).toBe(iso(RENEWAL + 3 * DAY));
      await at(server(), user, RENEWAL + 3 * DAY + MINUTE);
      expect((await subscriptionOf(server(), user)).pastDue?.nextRetryAt).toBe(iso(RENEWAL + 5 * DAY));
      expect(await recoveries(server(), user.id)).toEqual([expect.objectContaining({ outcome: 'open', attempts: 3 })]);
      expect(await mailsTo(server(), user.email)).toHaveLength(1);

      // A day before the last try: the last notice, once.
      await at(server(), user, RENEWAL + 6 * DAY + MINUTE);
      const notices = (await mailsTo(server(), user.email)).filter((mail) => mail.subject.startsWith('Last reminder'));
      expect(notices.map((mail) => mail.subject)).toEqual([`Last reminder: your Shapelab subscription ends on ${longDate(RENEWAL + 7 * DAY, 'en')}`]);
      expect(notices[0]?.text).toContain('http://localhost:3000/en/account/payment-options');
      expect((await subscriptionOf(server(), user)).pastDue?.nextRetryAt).toBe(iso(RENEWAL + 7 * DAY));

      // The last try fails: Paddle cancels the subscription; access ends; the renewal is lost.
      await at(server(), user, RENEWAL + 7 * DAY + MINUTE);
      expect(await subscriptionOf(server(), user)).toMatchObject({ status: 'canceled', pastDue: null });
      expect((await entitlementsOf(server().db.kysely, user.id, server().clock.now())).entitlement.plan).toBe('basic');
      expect(await recoveries(server(), user.id)).toEqual([expect.objectContaining({ outcome: 'lost', attempts: 5 })]);
      expect(await mailsTo(server(), user.email)).toHaveLength(2);
      const kinds = await server().db.kysely.selectFrom('activity_log').select('kind').where('user_id', '=', user.id).where('kind', 'like', 'payment.%').orderBy('created_at').execute();
      expect(kinds.map((entry) => entry.kind)).toEqual(['payment.failed', 'payment.lost']);
      const staff = (await signIn(server(), boss.email, boss.password)).access_token;
      const retention = (await call(server(), 'GET', '/api/billing/retention?from=2026-12-01&to=2027-01-31', staff)).json<Retention>();
      expect(retention.months.find((month) => month.month === '2026-12')?.renewals).toEqual({ recovered: 0, lost: 1 });
    });

    it('a new card settles the open payment at once: active again on the period it renews, recovered, no last notice (in German)', async () => {
      const user = await subscriber(server(), 'de');
      await at(server(), user, RENEWAL + MINUTE);
      const [failed] = await mailsTo(server(), user.email);
      expect(failed?.subject).toBe('Deine Zahlung für Shapelab ist nicht durchgegangen');
      expect(failed?.text).toContain('19,99\u00a0$');
      expect(failed?.text).toContain(`am ${longDate(RENEWAL + DAY, 'de')} noch einmal`);
      expect(failed?.text).toContain('http://localhost:3000/de/account/payment-options');

      await at(server(), user, RENEWAL + 2 * DAY);
      const update = await call(server(), 'POST', '/api/subscription/payment-method', user.token);
      expect(update.statusCode, update.body).toBe(200);
      expect((await paddle.pay(update.json<{ transactionId: string }>().transactionId, TEST_CARDS.success)).status).toBe(200);
      await paddle.settle(server());
      expect(await subscriptionOf(server(), user)).toMatchObject({
        status: 'active',
        pastDue: null,
        currentPeriod: { startsAt: iso(RENEWAL), endsAt: '2027-01-22T10:00:00.000Z' },
        nextBilledAt: '2027-01-22T10:00:00.000Z',
      });
      expect(await recoveries(server(), user.id)).toEqual([expect.objectContaining({ outcome: 'recovered' })]);
      // Past the day of the last notice: none, the payment is settled.
      await at(server(), user, RENEWAL + 6 * DAY + MINUTE);
      expect(await mailsTo(server(), user.email)).toHaveLength(1);
      const boss = await server().createUser({ roles: ['user', 'admin'] });
      const bossToken = (await signIn(server(), boss.email, boss.password)).access_token;
      const retention = (await call(server(), 'GET', '/api/billing/retention?from=2026-12-01&to=2026-12-31', bossToken)).json<Retention>();
      expect(retention.months).toEqual([expect.objectContaining({ month: '2026-12', renewals: { recovered: expect.any(Number), lost: expect.any(Number) } })]);
      expect(retention.months[0]?.renewals.recovered).toBeGreaterThanOrEqual(1);
    });

    it('the webhooks of a failed renewal delivered twice and newest first open one recovery and mail once', async () => {
      const user = await subscriber(server());
      paddle.sandbox.setDelivery('chaotic');
      try {
        await paddle.travelTo(server(), new Date(RENEWAL + MINUTE));
        await paddle.settle(server());
      } finally {
        paddle.sandbox.setDelivery('ordered');
      }
      await at(server(), user, RENEWAL + MINUTE);
      expect(await recoveries(server(), user.id)).toEqual([expect.objectContaining({ outcome: 'open', attempts: 1, amount: 1999 })]);
      expect(await mailsTo(server(), user.email)).toHaveLength(1);
      await paddle.paddle.subscriptions.cancel((await subscriptionOf(server(), user)).id, { effectiveFrom: 'immediately' });
      await paddle.settle(server());
      expect(await recoveries(server(), user.id)).toEqual([expect.objectContaining({ outcome: 'lost' })]);
    });

    it('the retention figures are for staff, over a range of months', async () => {
      const user = await subscriber(server(), 'en', TEST_CARDS.success);
      expect((await call(server(), 'GET', '/api/billing/retention?from=2026-12-01&to=2026-12-31', user.token)).statusCode).toBe(403);
      const boss = await server().createUser({ roles: ['user', 'admin'] });
      const bossToken = (await signIn(server(), boss.email, boss.password)).access_token;
      for (const query of ['from=2026-12-31&to=2026-12-01', 'from=2020-01-01&to=2026-12-31', 'from=2026-13-01&to=2026-12-31', 'from=x&to=y']) {
        expect((await call(server(), 'GET', `/api/billing/retention?${query}`, bossToken)).statusCode, query).toBe(400);
      }
    });
  },
  () => ({ billing: paddle.billing }),
);
