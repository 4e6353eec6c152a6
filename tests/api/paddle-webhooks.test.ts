import { randomBytes } from 'node:crypto';
import { expect, it, vi } from 'vitest';
import type { BillingConfig } from '../../server/config.js';
import { PRICE_IDS } from '../../server/sandbox/catalogue.js';
import { signWebhook } from '../../server/sandbox/webhooks.js';
import { signIn, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * Paddle webhooks at POST /api/paddle/webhook: signed exactly as Paddle (and the stand-in) signs them,
 * checked on the raw body, stored once by event_id, applied in order of occurred_at.
 */
const SECRET = `pdl_ntfset_${randomBytes(16).toString('hex')}`;
const billing: BillingConfig = { sandbox: false, apiKey: '', environment: '', clientToken: '', webhookSecret: SECRET };

const nowSeconds = () => Math.floor(Date.now() / 1000);

function deliver(server: TestServer, event: object, options: { secret?: string; ts?: number; tamper?: boolean } = {}) {
  const raw = JSON.stringify(event);
  const signature = signWebhook(raw, options.secret ?? SECRET, options.ts ?? nowSeconds());
  return server.app.inject({
    method: 'POST',
    url: '/api/paddle/webhook',
    payload: options.tamper ? raw.replace('"active"', '"canceled"') : raw,
    headers: { 'content-type': 'application/json', 'paddle-signature': signature },
  });
}

let sequence = 0;
function subscriptionEvent(
  customerId: string,
  subscriptionId: string,
  type: string,
  occurredAt: string,
  changes: { status?: string; scheduledCancelAt?: string | null; nextBilledAt?: string | null },
) {
  sequence += 1;
  return {
    event_id: `evt_01h${String(sequence).padStart(23, '0')}`,
    event_type: type,
    occurred_at: occurredAt,
    notification_id: `ntf_01h${String(sequence).padStart(23, '0')}`,
    data: {
      id: subscriptionId,
      status: changes.status ?? 'trialing',
      customer_id: customerId,
      address_id: 'add_01h000000000000000000000000',
      currency_code: 'USD',
      created_at: '2026-11-01T10:00:00.000Z',
      updated_at: occurredAt,
      next_billed_at: 'nextBilledAt' in changes ? changes.nextBilledAt : '2026-11-15T10:00:00.000Z',
      canceled_at: null,
      collection_mode: 'automatic',
      billing_cycle: { interval: 'month', frequency: 1 },
      current_billing_period: { starts_at: '2026-11-01T10:00:00.000Z', ends_at: '2026-11-15T10:00:00.000Z' },
      scheduled_change: changes.scheduledCancelAt ? { action: 'cancel', effective_at: changes.scheduledCancelAt, resume_at: null } : null,
      items: [
        {
          status: 'trialing',
          quantity: 1,
          recurring: true,
          price: { id: PRICE_IDS.monthly },
          trial_dates: { starts_at: '2026-11-01T10:00:00.000Z', ends_at: '2026-11-15T10:00:00.000Z' },
        },
      ],
    },
  };
}

/** A signed-in user with a Paddle customer id of their own. */
async function customer(server: TestServer) {
  const user = await server.createUser();
  const customerId = `ctm_01h${randomBytes(12).toString('hex').slice(0, 23)}`;
  await server.db.kysely
    .insertInto('billing_customers')
    .values({ user_id: user.id, provider_customer_id: customerId, created_at: new Date().toISOString() })
    .execute();
  const { access_token } = await signIn(server, user.email, user.password);
  return { customerId, token: access_token, subscriptionId: `sub_01h${randomBytes(12).toString('hex').slice(0, 23)}` };
}

async function subscriptionOf(server: TestServer, token: string) {
  const response = await server.app.inject({ method: 'GET', url: '/api/subscription/user', headers: { authorization: `Bearer ${token}` } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function eventCount(server: TestServer) {
  const row = await server.db.kysely.selectFrom('webhook_events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

describeEachDatabase(
  'Paddle webhooks',
  (server) => {
    it('a signed subscription.created becomes the user’s subscription', async () => {
      const { customerId, token, subscriptionId } = await customer(server());
      expect(await subscriptionOf(server(), token)).toBeNull();
      const response = await deliver(server(), subscriptionEvent(customerId, subscriptionId, 'subscription.created', '2026-11-01T10:00:01.000Z', {}));
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ received: true });
      expect(await subscriptionOf(server(), token)).toEqual({
        id: subscriptionId,
        status: 'trialing',
        priceId: PRICE_IDS.monthly,
        interval: 'month',
        currencyCode: 'USD',
        currentPeriod: { startsAt: '2026-11-01T10:00:00.000Z', endsAt: '2026-11-15T10:00:00.000Z' },
        nextBilledAt: '2026-11-15T10:00:00.000Z',
        trialEndsAt: '2026-11-15T10:00:00.000Z',
        scheduledChange: null,
        canceledAt: null,
        // A trial has no payment yet: cancelling it refunds nothing.
        refund: null,
        refundUsed: false,
        pause: null,
        pastDue: null,
      });
    });

    it('duplicated and reordered deliveries end in the same state as ordered delivery', async () => {
      const ordered = await customer(server());
      const shuffled = await customer(server());
      const history = (c: { customerId: string; subscriptionId: string }) => [
        subscriptionEvent(c.customerId, c.subscriptionId, 'subscription.created', '2026-11-01T10:00:01.000Z', {}),
        subscriptionEvent(c.customerId, c.subscriptionId, 'subscription.updated', '2026-11-15T10:00:02.000Z', { status: 'active', nextBilledAt: '2026-12-15T10:00:00.000Z' }),
        subscriptionEvent(c.customerId, c.subscriptionId, 'subscription.updated', '2026-11-20T08:00:00.000Z', {
          status: 'active',
          nextBilledAt: null,
          scheduledCancelAt: '2026-12-15T10:00:00.000Z',
        }),
      ];
      for (const event of history(ordered)) expect((await deliver(server(), event)).statusCode).toBe(200);

      const [created, renewed, cancelScheduled] = history(shuffled) as [object, object, object];
      const before = await eventCount(server());
      for (const event of [cancelScheduled, created, renewed, created, cancelScheduled, renewed]) {
        expect((await deliver(server(), event)).statusCode).toBe(200);
      }
      // Each event is stored once, whatever the number of deliveries.
      expect((await eventCount(server())) - before).toBe(3);
      const final = await subscriptionOf(server(), shuffled.token);
      const expected = await subscriptionOf(server(), ordered.token);
      expect({ ...final, id: 'x' }).toEqual({ ...expected, id: 'x' });
      expect(final).toMatchObject({ status: 'active', scheduledChange: { action: 'cancel', effectiveAt: '2026-12-15T10:00:00.000Z' }, nextBilledAt: null });
    });

    it('a bad, tampered, foreign or stale signature is refused and changes nothing', async () => {
      const { customerId, token, subscriptionId } = await customer(server());
      const event = subscriptionEvent(customerId, subscriptionId, 'subscription.created', '2026-11-01T10:00:01.000Z', { status: 'active' });
      const before = await eventCount(server());
      for (const options of [{ secret: 'pdl_ntfset_someone_else' }, { tamper: true }, { ts: nowSeconds() - 60 }]) {
        const response = await deliver(server(), event, options);
        expect(response.statusCode, JSON.stringify(options)).toBe(401);
        expect(response.json().messageKey).toBe('INVALID_WEBHOOK_SIGNATURE');
      }
      const unsigned = await server().app.inject({
        method: 'POST',
        url: '/api/paddle/webhook',
        payload: JSON.stringify(event),
        headers: { 'content-type': 'application/json' },
      });
      expect(unsigned.statusCode).toBe(401);
      expect(await eventCount(server())).toBe(before);
      expect(await subscriptionOf(server(), token)).toBeNull();
    });

    it('a signed body that is not a Paddle event is refused with a messageKey, not a 500', async () => {
      const response = await deliver(server(), { hello: 'world' });
      expect(response.statusCode).toBe(400);
      expect(response.json().messageKey).toBe('WEBHOOK_PAYLOAD_INVALID');
    });

    it('a signed event whose data fails the schema answers 400 to every delivery, is logged once, and is applied once it reads (issue 44)', async () => {
      const { customerId, token, subscriptionId } = await customer(server());
      const good = subscriptionEvent(customerId, subscriptionId, 'subscription.created', '2026-11-01T10:00:01.000Z', {});
      const bad = { ...good, data: { ...good.data, customer_id: 42, items: [] } };
      const warn = vi.spyOn(server().app.log, 'warn');
      try {
        const before = await eventCount(server());
        for (let delivery = 0; delivery < 3; delivery += 1) {
          const response = await deliver(server(), bad);
          expect(response.statusCode, response.body).toBe(400);
          expect(response.json()).toEqual({ messageKey: 'WEBHOOK_PAYLOAD_INVALID', message: 'The notification is signed correctly but its data could not be read.' });
        }
        const logged = warn.mock.calls.filter(([details]) => typeof details === 'object' && details !== null && 'eventId' in details);
        expect(logged).toHaveLength(1);
        expect(logged[0]?.[0]).toEqual({ eventId: good.event_id, eventType: 'subscription.created', problem: 'data.customer_id: invalid_type; data.items: too_small' });
        const remembered = await server().db.kysely.selectFrom('webhook_rejections').select(['event_id', 'deliveries']).where('event_id', '=', good.event_id).execute();
        expect(remembered.map((row) => ({ ...row, deliveries: Number(row.deliveries) }))).toEqual([{ event_id: good.event_id, deliveries: 3 }]);
        // Not stored as received: the same event with data the portal reads is applied.
        expect(await eventCount(server())).toBe(before);
        expect((await deliver(server(), good)).statusCode).toBe(200);
        expect(await subscriptionOf(server(), token)).toMatchObject({ id: subscriptionId, status: 'trialing' });

        // A body without an event id is known by its digest: logged once too.
        warn.mockClear();
        for (let delivery = 0; delivery < 2; delivery += 1) expect((await deliver(server(), { hello: 'again' })).statusCode).toBe(400);
        expect(warn.mock.calls.filter(([details]) => typeof details === 'object' && details !== null && 'eventId' in details)).toEqual([
          [{ eventId: null, eventType: null, problem: expect.stringContaining('event_id: invalid_type') }, expect.any(String)],
        ]);
      } finally {
        warn.mockRestore();
      }
    });
  },
  () => ({ billing }),
);
