import { afterAll, beforeAll, expect, it } from 'vitest';
import { CARD_EXPIRY_JOB } from '../../server/modules/billing/card-expiry.js';
import { enqueue } from '../../server/modules/jobs/index.js';
import { TEST_CARDS } from '../../server/sandbox/purchases.js';
import { call, startSandbox, strayPaidPlan } from '../fixtures/paddle.js';
import { signIn, TEST_NOW, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * Issue 46 item 6: one mail 30 days before the card a subscription is charged on expires (en/de), once
 * per card: a durable job due at that moment (it survives a restart as a row of `jobs`, and one instance
 * of several claims it), sent only while the card is still the one charged.
 */
let paddle: Awaited<ReturnType<typeof startSandbox>>;

beforeAll(async () => {
  paddle = await startSandbox();
});
afterAll(async () => {
  await paddle?.sandbox.close();
});

const MINUTE = 60_000;
/** A card expiring 01/27 works through January 2027: the warning is due 30 days before February begins. */
const WARNING = Date.parse('2027-02-01T00:00:00.000Z') - 30 * 86_400_000;

async function subscriber(server: TestServer, expiry: string, language: 'en' | 'de' = 'en') {
  await paddle.travelTo(server, TEST_NOW);
  const user = await server.createUser();
  const { access_token: token } = await signIn(server, user.email, user.password);
  if (language === 'de') await call(server, 'PATCH', '/api/users/me', token, { payload: { language: 'de' } });
  const customerId = (await call(server, 'GET', '/api/subscription/paddle/customer', token)).json().id as string;
  const plan = await strayPaidPlan(paddle, customerId, 'month');
  expect((await paddle.pay(plan.id, TEST_CARDS.success, 'card', expiry)).status).toBe(200);
  await paddle.settle(server);
  return { ...user, token, customerId };
}

async function warningsTo(server: TestServer, email: string) {
  const mails = (await call(server, 'GET', `/api/dev/outbox?to=${encodeURIComponent(email)}`)).json<{ subject: string; text: string }[]>();
  return mails.filter((mail) => /card/i.test(mail.subject) || /Karte/.test(mail.subject));
}

async function travel(server: TestServer, time: number) {
  await paddle.travelTo(server, new Date(time));
  await paddle.settle(server);
}

describeEachDatabase(
  'the card expiry warning',
  (server) => {
    beforeAll(() => {
      paddle.deliverTo(server);
    });

    it('30 days before the saved card expires: one mail, with the card, the next payment and the link; once per card', async () => {
      const user = await subscriber(server(), '01/27');
      // Queued as a durable job, due then: a restart finds it in the table.
      const job = await server().db.kysely.selectFrom('jobs').select(['run_at', 'status']).where('kind', '=', CARD_EXPIRY_JOB).where('key', 'like', `card-expiry:${user.id}:%`).executeTakeFirst();
      expect(job).toEqual({ run_at: new Date(WARNING).toISOString(), status: 'pending' });
      await travel(server(), WARNING - MINUTE);
      expect(await warningsTo(server(), user.email)).toEqual([]);
      await travel(server(), WARNING + MINUTE);
      const [warning, ...more] = await warningsTo(server(), user.email);
      expect(more).toEqual([]);
      expect(warning?.subject).toBe('Your card for Shapelab expires soon');
      expect(warning?.text).toContain('the card ending in 4242');
      expect(warning?.text).toContain('at the end of 01/2027');
      expect(warning?.text).toContain('Your next payment is due on January 22, 2027');
      expect(warning?.text).toContain('http://localhost:3000/en/account/payment-options');
      // The renewal a few weeks on (on the same card) queues its warning again: mailed once all the same,
      // as when two instances run it.
      await travel(server(), Date.parse('2027-01-22T10:00:00.000Z') + MINUTE);
      await server().db.kysely.transaction().execute(async (trx) => {
        const subscription = await trx.selectFrom('subscriptions').select('id').where('user_id', '=', user.id).executeTakeFirstOrThrow();
        await enqueue(trx, server().clock.now(), { kind: CARD_EXPIRY_JOB, payload: { userId: user.id, subscriptionId: subscription.id, card: { last4: '4242', month: 1, year: 2027 } }, key: 'a second instance' });
      });
      await paddle.settle(server());
      expect(await warningsTo(server(), user.email)).toHaveLength(1);
    });

    it('in German, and not for a card replaced before the warning, nor for a subscription that ends', async () => {
      const german = await subscriber(server(), '01/27', 'de');
      const replaced = await subscriber(server(), '01/27');
      const ending = await subscriber(server(), '01/27');
      await travel(server(), Date.parse('2026-12-01T10:00:00.000Z'));
      const token = (await signIn(server(), replaced.email, replaced.password)).access_token;
      const update = await call(server(), 'POST', '/api/subscription/payment-method', token);
      expect((await paddle.pay(update.json<{ transactionId: string }>().transactionId, TEST_CARDS.success, 'card', '12/30')).status).toBe(200);
      const endingToken = (await signIn(server(), ending.email, ending.password)).access_token;
      expect((await call(server(), 'POST', '/api/subscription/cancel', endingToken)).statusCode).toBe(200);
      await paddle.settle(server());

      await travel(server(), WARNING + MINUTE);
      const [warning] = await warningsTo(server(), german.email);
      expect(warning?.subject).toBe('Deine Karte für Shapelab läuft bald ab');
      expect(warning?.text).toContain('läuft Ende 01/2027 ab');
      expect(warning?.text).toContain('http://localhost:3000/de/account/payment-options');
      expect(await warningsTo(server(), replaced.email)).toEqual([]);
      expect(await warningsTo(server(), ending.email)).toEqual([]);
    });
  },
  () => ({ billing: paddle.billing }),
);
