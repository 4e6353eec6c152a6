import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Retention } from '../../contract/retention.js';
import { TEST_CARDS } from '../../server/sandbox/purchases.js';
import { call, startSandbox, strayPaidPlan } from '../fixtures/paddle.js';
import { signIn, TEST_NOW, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * Issue 46 item 8: why customers leave. The cancel dialog asks for a reason (a few choices and optional
 * text); admin analytics counts cancellations by reason per month ('none' when none was given, as in an
 * admin's cancellation).
 */
let paddle: Awaited<ReturnType<typeof startSandbox>>;

beforeAll(async () => {
  paddle = await startSandbox();
});
afterAll(async () => {
  await paddle?.sandbox.close();
});

async function subscriber(server: TestServer) {
  const user = await server.createUser();
  const { access_token: token } = await signIn(server, user.email, user.password);
  const customerId = (await call(server, 'GET', '/api/subscription/paddle/customer', token)).json().id as string;
  const plan = await strayPaidPlan(paddle, customerId, 'month');
  expect((await paddle.pay(plan.id, TEST_CARDS.success)).status).toBe(200);
  await paddle.settle(server);
  return { ...user, token };
}

describeEachDatabase(
  'why customers leave',
  (server) => {
    beforeAll(() => {
      paddle.deliverTo(server);
    });

    it('each cancellation keeps its reason and words; admin analytics counts them by reason per month', async () => {
      await paddle.travelTo(server(), TEST_NOW);
      const boss = await server().createUser({ roles: ['user', 'admin'] });
      const bossToken = (await signIn(server(), boss.email, boss.password)).access_token;
      const before = (await call(server(), 'GET', '/api/billing/retention?from=2026-11-01&to=2026-12-31', bossToken)).json<Retention>();
      expect(before.months.map((month) => month.month)).toEqual(['2026-11', '2026-12']);

      const first = await subscriber(server());
      const cancelled = await call(server(), 'POST', '/api/subscription/cancel', first.token, { payload: { reason: 'too_expensive', comment: '  Too much for a hobby.  ' } });
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      const second = await subscriber(server());
      expect((await call(server(), 'POST', '/api/subscription/cancel', second.token, { payload: { refund: true, reason: 'missing_features' } })).statusCode).toBe(200);
      const third = await subscriber(server());
      expect((await call(server(), 'POST', `/api/users/${third.id}/subscription/cancel`, bossToken, { payload: { refund: false } })).statusCode).toBe(200);
      // What is not one of the choices, or too long, is refused and cancels nothing.
      const fourth = await subscriber(server());
      for (const payload of [{ reason: 'meh' }, { reason: 'other', comment: 'x'.repeat(501) }, { comment: 5 }]) {
        expect((await call(server(), 'POST', '/api/subscription/cancel', fourth.token, { payload })).statusCode, JSON.stringify(payload)).toBe(400);
      }
      await paddle.settle(server());

      const rows = await server().db.kysely.selectFrom('cancellations').select(['user_id', 'reason', 'comment', 'refund', 'actor_id']).where('user_id', 'in', [first.id, second.id, third.id, fourth.id]).execute();
      expect(rows.sort((a, b) => [first.id, second.id, third.id].indexOf(a.user_id) - [first.id, second.id, third.id].indexOf(b.user_id))).toEqual([
        { user_id: first.id, reason: 'too_expensive', comment: 'Too much for a hobby.', refund: 0, actor_id: null },
        { user_id: second.id, reason: 'missing_features', comment: null, refund: 1, actor_id: null },
        { user_id: third.id, reason: null, comment: null, refund: 0, actor_id: boss.id },
      ]);
      const after = (await call(server(), 'GET', '/api/billing/retention?from=2026-11-01&to=2026-12-31', bossToken)).json<Retention>();
      const [november, december] = after.months;
      const added = Object.fromEntries(Object.entries(november?.cancellations ?? {}).map(([reason, count]) => [reason, count - (before.months[0]?.cancellations[reason as 'none'] ?? 0)]));
      expect(added).toEqual({ too_expensive: 1, not_using: 0, missing_features: 1, technical_problems: 0, switching: 0, other: 0, none: 1 });
      expect(december?.cancellations).toEqual(before.months[1]?.cancellations);
    });
  },
  () => ({ billing: paddle.billing }),
);
