import { afterAll, beforeAll, expect, it } from 'vitest';
import { PRICE_IDS } from '../../server/sandbox/catalogue.js';
import { TEST_CARDS } from '../../server/sandbox/purchases.js';
import { call, startSandbox } from '../fixtures/paddle.js';
import { signIn, someClientAddress, TEST_NOW, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * A subscription from checkout to cancel and continue, through the real SDK against the stand-in, with
 * the stand-in's signed webhooks delivered to the portal.
 */
let paddle: Awaited<ReturnType<typeof startSandbox>>;

beforeAll(async () => {
  paddle = await startSandbox();
});
afterAll(async () => {
  await paddle?.sandbox.close();
});

async function subscriber(server: TestServer, card: string = TEST_CARDS.success, priceId: string = PRICE_IDS.monthly) {
  return paddle.buyer(server, { card, priceId });
}

async function subscription(server: TestServer, token: string) {
  return (await call(server, 'GET', '/api/subscription/user', token)).json();
}

describeEachDatabase(
  'subscription lifecycle',
  (server) => {
    beforeAll(() => {
      server().clock.set(TEST_NOW);
      paddle.clock.set(TEST_NOW);
      paddle.deliverTo(server);
    });

    it('a first subscription starts with a 14-day trial, learned from the webhook', async () => {
      const { token } = await subscriber(server());
      const started = await subscription(server(), token);
      expect(started).toMatchObject({ status: 'trialing', priceId: PRICE_IDS.monthly, interval: 'month', scheduledChange: null });
      const trialDays = (new Date(started.trialEndsAt).getTime() - TEST_NOW.getTime()) / 86_400_000;
      expect(trialDays).toBe(14);
      expect(started.nextBilledAt).toBe(started.trialEndsAt);
    });

    it('a declined card starts nothing', async () => {
      const { token, paid } = await subscriber(server(), TEST_CARDS.declined);
      expect(paid.status).toBe(402);
      expect(await subscription(server(), token)).toBeNull();
    });

    it('cancel keeps it active until the period ends; continue removes the cancellation', async () => {
      const { token } = await subscriber(server());
      const cancelled = await call(server(), 'POST', '/api/subscription/cancel', token);
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      expect(cancelled.json()).toMatchObject({ status: 'trialing', nextBilledAt: null });
      expect(cancelled.json().scheduledChange).toEqual({ action: 'cancel', effectiveAt: cancelled.json().currentPeriod.endsAt });
      await paddle.sandbox.flush();
      // The webhook that follows agrees, and a reload shows the same.
      expect(await subscription(server(), token)).toEqual(cancelled.json());

      const continued = await call(server(), 'POST', '/api/subscription/continue', token);
      expect(continued.statusCode, continued.body).toBe(200);
      expect(continued.json()).toMatchObject({ scheduledChange: null, nextBilledAt: cancelled.json().currentPeriod.endsAt });
    });

    it('refuses changes in the 30 minutes before renewal, in en and de', async () => {
      const { user, token: first } = await subscriber(server());
      const { nextBilledAt } = await subscription(server(), first);
      server().clock.set(new Date(new Date(nextBilledAt).getTime() - 10 * 60_000));
      try {
        // Two weeks on, the first session has expired: sign in again.
        const { access_token: token } = await signIn(server(), user.email, user.password);
        const refused = await call(server(), 'POST', '/api/subscription/cancel', token, { language: 'de' });
        expect(refused.statusCode).toBe(409);
        expect(refused.json().messageKey).toBe('SUBSCRIPTION_LOCKED');
        expect(refused.json().message).toMatch(/^Das Abonnement kann in den 30 Minuten vor der Verlängerung nicht geändert werden/);
        expect((await subscription(server(), token)).scheduledChange).toBeNull();
        server().clock.set(new Date(new Date(nextBilledAt).getTime() - 31 * 60_000));
        expect((await call(server(), 'POST', '/api/subscription/cancel', token)).statusCode).toBe(200);
      } finally {
        server().clock.set(TEST_NOW);
      }
    });

    it('without a subscription, cancel answers SUBSCRIPTION_NOT_FOUND', async () => {
      const user = await server().createUser();
      const { access_token } = await signIn(server(), user.email, user.password);
      // As the SPA sends it (spec section 7): Content-Type application/json, and no body.
      const response = await server().app.inject({
        method: 'POST',
        url: '/api/subscription/cancel',
        headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
        remoteAddress: someClientAddress(),
      });
      expect(response.statusCode).toBe(404);
      expect(response.json().messageKey).toBe('SUBSCRIPTION_NOT_FOUND');
      // A body that is there must still be JSON, and safe.
      for (const payload of ['{"broken"', '{"__proto__":{"admin":true}}']) {
        const refused = await server().app.inject({
          method: 'POST',
          url: '/api/subscription/cancel',
          payload,
          headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
        });
        expect(refused.statusCode).toBe(400);
      }
    });

    it('lists the user’s invoices, and only the owner gets the invoice PDF', async () => {
      const { token, transactionId } = await subscriber(server(), TEST_CARDS.success, PRICE_IDS.perpetual2025);
      const list = await call(server(), 'GET', '/api/subscription/billing/invoice', token);
      expect(list.statusCode, list.body).toBe(200);
      expect(list.json()).toEqual([
        expect.objectContaining({
          id: transactionId,
          status: 'completed',
          total: { amount: 29900, currencyCode: 'USD' },
          paymentStatus: 'paid',
          items: [
            {
              priceId: PRICE_IDS.perpetual2025,
              name: 'Shapelab 2025',
              kind: 'perpetual',
              release: '2025',
              interval: null,
              i18n: {
                en: { name: 'Shapelab 2025', description: 'The 2025 release to keep, with its updates.' },
                de: { name: 'Shapelab 2025', description: 'Die Version 2025 zum Behalten, mit ihren Updates.' },
              },
            },
          ],
          refund: null,
          invoiceUrl: `/api/subscription/billing/invoice/${transactionId}`,
        }),
      ]);
      const pdf = await call(server(), 'GET', `/api/subscription/billing/invoice/${transactionId}`, token);
      expect(pdf.statusCode).toBe(200);
      expect(pdf.json().url).toMatch(new RegExp(`${transactionId}\\.pdf$`));

      const stranger = await server().createUser();
      const { access_token } = await signIn(server(), stranger.email, stranger.password);
      const refused = await call(server(), 'GET', `/api/subscription/billing/invoice/${transactionId}`, access_token);
      expect(refused.statusCode).toBe(404);
      expect(refused.json().messageKey).toBe('INVOICE_NOT_FOUND');
      expect((await call(server(), 'GET', '/api/subscription/billing/invoice', access_token)).json()).toEqual([]);
    });
  },
  () => ({ billing: paddle.billing }),
);
