import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PRICE_IDS } from '../../server/sandbox/catalogue.js';
import { TEST_CARDS } from '../../server/sandbox/purchases.js';
import { call, startSandbox } from '../fixtures/paddle.js';
import { signIn, someClientAddress, TEST_NOW, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * Issue 21: one account as support sees it (`GET /users/{id}`) and its timeline (`GET /users/{id}/activity`),
 * written by the services that act: each event once, however often Paddle delivers it.
 */
let paddle: Awaited<ReturnType<typeof startSandbox>>;

beforeAll(async () => {
  paddle = await startSandbox();
});
afterAll(async () => {
  await paddle?.sandbox.close();
});

async function admin(server: TestServer) {
  const user = await server.createUser({ roles: ['user', 'admin'] });
  return { ...user, token: (await signIn(server, user.email, user.password)).access_token };
}

interface Entry {
  kind: string;
  actorEmail: string | null;
  details: Record<string, unknown>;
  createdAt: string;
}

async function timeline(server: TestServer, token: string, userId: string): Promise<Entry[]> {
  const all: Entry[] = [];
  for (let skip = 0; ; skip += 3) {
    const page = await call(server, 'GET', `/api/users/${userId}/activity?skip=${skip}&take=3`, token);
    expect(page.statusCode, page.body).toBe(200);
    const { data, total } = page.json() as { data: Entry[]; total: number };
    all.push(...data);
    if (data.length < 3) {
      expect(all).toHaveLength(total);
      return all;
    }
  }
}

describeEachDatabase(
  'the admin user page',
  (server) => {
    beforeAll(() => {
      paddle.deliverTo(server);
    });

    it('a customer who registered, bought, activated a device, redeemed a coupon and was refunded: each event once, newest first', async () => {
      await paddle.travelTo(server(), TEST_NOW);
      const boss = await admin(server());
      // Registered and verified as a customer would: the form, then the code from the mail.
      const email = `story-${randomUUID().slice(0, 8)}@example.com`;
      const password = 'sculpt4ever';
      const registered = await server().app.inject({
        method: 'POST',
        url: '/api/users?generateVerificationCode=true',
        payload: { email, password, firstName: 'Ada', lastName: 'Lovelace', privacyAccepted: true },
        remoteAddress: someClientAddress(),
      });
      expect(registered.statusCode, registered.body).toBe(201);
      await server().app.jobs.idle();
      const mail = (await server().app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(email)}` })).json() as { text: string }[];
      const code = /\b(\d{6})\b/.exec(mail[0]?.text ?? '')?.[1] ?? '';
      const verified = await server().app.inject({ method: 'POST', url: '/api/users/validate/code', payload: { email, code }, remoteAddress: someClientAddress() });
      expect(verified.statusCode, verified.body).toBe(200);
      const { access_token: token } = await signIn(server(), email, password);
      const user = { id: (await call(server(), 'GET', '/api/users/me', token)).json().id as string, email };

      // Paddle's at-least-once delivery: every event twice, newest first. The timeline still has each once.
      const customerId = (await call(server(), 'GET', '/api/subscription/paddle/customer', token)).json().id as string;
      const checkout = await paddle.paddle.transactions.create({ items: [{ priceId: PRICE_IDS.perpetual2025, quantity: 1 }], customerId });
      const transactionId = checkout.id;
      paddle.sandbox.setDelivery('chaotic');
      try {
        expect((await paddle.pay(transactionId, TEST_CARDS.success)).status).toBe(200);
        await paddle.settle(server());
      } finally {
        paddle.sandbox.setDelivery('ordered');
      }

      const activated = await call(server(), 'POST', '/api/desktop/activate', token, { payload: { computerId: 'pc-1', name: 'Studio PC' } });
      expect(activated.statusCode, activated.body).toBe(200);
      const coupon = `WELCOME${randomUUID().slice(0, 6).toUpperCase()}`;
      expect((await call(server(), 'POST', '/api/coupons', boss.token, { payload: { code: coupon, grant: 'access', days: 30 } })).statusCode).toBe(200);
      expect((await call(server(), 'POST', '/api/coupons/redeem', token, { payload: { code: coupon } })).statusCode).toBe(200);
      const licences = (await call(server(), 'GET', '/api/perpetual/license', token)).json() as { licenceId: string; source: string }[];
      const bought = licences.find((licence) => licence.source === 'purchase');
      const returned = await call(server(), 'POST', `/api/perpetual/license/${String(bought?.licenceId)}/return`, token);
      expect(returned.statusCode, returned.body).toBe(200);
      await paddle.settle(server());
      const released = await call(server(), 'DELETE', `/api/perpetual/seats?id=${String(activated.json().seat.id)}`, token);
      expect(released.statusCode, released.body).toBe(200);

      const entries = await timeline(server(), boss.token, user.id);
      const kinds = entries.map((entry) => entry.kind);
      for (const kind of ['account.registered', 'email.verified', 'purchase.completed', 'device.activated', 'coupon.redeemed', 'purchase.refunded', 'device.released']) {
        expect(kinds.filter((k) => k === kind), `${kind} in ${kinds.join(', ')}`).toHaveLength(1);
      }
      expect(kinds.filter((k) => k === 'session.signed_in').length).toBeGreaterThanOrEqual(1);
      expect(entries.find((entry) => entry.kind === 'purchase.completed')?.details).toMatchObject({ transactionId });
      expect(entries.find((entry) => entry.kind === 'device.activated')?.details).toMatchObject({ name: 'Studio PC', computerId: 'pc-1' });
      // Newest first, in the order it happened (the clock stands still here: ties list in the order written).
      const story = kinds.filter((kind) => kind !== 'session.signed_in').reverse();
      expect(story).toEqual(['account.registered', 'email.verified', 'purchase.completed', 'device.activated', 'coupon.redeemed', 'purchase.refunded', 'device.released']);

      const detail = await call(server(), 'GET', `/api/users/${user.id}`, boss.token);
      expect(detail.statusCode, detail.body).toBe(200);
      const body = detail.json();
      expect(body.user).toMatchObject({ id: user.id, email: user.email, emailVerified: true, roles: ['user'] });
      expect(body.signInMethods).toEqual({ password: true, google: false, facebook: false, twoFactor: false });
      expect(body.sessions.length).toBeGreaterThanOrEqual(1);
      expect(body.sessions.every((session: { current: boolean }) => !session.current)).toBe(true);
      expect(body.transactions).toEqual([expect.objectContaining({ id: transactionId, status: 'completed', refundStatus: expect.any(String) })]);
      expect(body.licences).toEqual([expect.objectContaining({ source: 'purchase', release: '2025', revokedAt: expect.any(String) })]);
      expect(body.devices.seats).toEqual([]);
      expect(body.coupons).toEqual([expect.objectContaining({ code: coupon })]);
      expect(body.accessPasses).toHaveLength(1);
    });

    it('role changes made by an admin name the admin; the history dialog keeps showing only admin changes', async () => {
      const boss = await admin(server());
      const user = await server().createUser();
      expect((await call(server(), 'PATCH', `/api/users/${user.id}`, boss.token, { payload: { roles: ['user', 'admin'] } })).statusCode).toBe(200);
      const entries = await timeline(server(), boss.token, user.id);
      expect(entries[0]).toMatchObject({ kind: 'roles.changed', actorEmail: boss.email, details: { from: ['user'], to: ['admin', 'user'] } });
      const audit = (await call(server(), 'GET', `/api/users/${user.id}/audit`, boss.token)).json() as { action: string }[];
      expect(audit.map((entry) => entry.action)).toEqual(['roles.changed']);
    });

    it('a plain user gets 403 on every new route; an unknown user is 404; a bad page is 400', async () => {
      const boss = await admin(server());
      const user = await server().createUser();
      const { access_token: token } = await signIn(server(), user.email, user.password);
      for (const url of [`/api/users/${user.id}`, `/api/users/${user.id}/activity`, `/api/users/${boss.id}`]) {
        const refused = await call(server(), 'GET', url, token);
        expect(refused.statusCode, url).toBe(403);
      }
      const missing = '00000000-0000-4000-8000-000000000000';
      expect((await call(server(), 'GET', `/api/users/${missing}`, boss.token)).json().messageKey).toBe('USER_NOT_FOUND');
      expect((await call(server(), 'GET', `/api/users/${missing}/activity`, boss.token)).statusCode).toBe(404);
      expect((await call(server(), 'GET', `/api/users/${user.id}/activity?take=1000`, boss.token)).statusCode).toBe(400);
    });
  },
  () => ({ billing: paddle.billing }),
);
