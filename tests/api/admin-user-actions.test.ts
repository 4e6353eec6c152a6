import { afterAll, beforeAll, expect, it } from 'vitest';
import { PRICE_IDS } from '../../server/sandbox/catalogue.js';
import { TEST_CARDS } from '../../server/sandbox/purchases.js';
import { call, PLAN_PRICES, startSandbox, strayPaidPlan } from '../fixtures/paddle.js';
import { signIn, TEST_NOW, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * Issue 21: what support does for a customer from the admin user page. Each action is the customer's own
 * service (the same refund window, the same seat release, the same end of a session), refused to plain
 * users, answered 404 for an unknown user or device, and written once to the user's timeline with the
 * admin who acted.
 */
let paddle: Awaited<ReturnType<typeof startSandbox>>;

beforeAll(async () => {
  paddle = await startSandbox();
});
afterAll(async () => {
  await paddle?.sandbox.close();
});

const DAY = 86_400_000;
const MISSING = '00000000-0000-4000-8000-000000000000';

interface Entry {
  kind: string;
  actorId: string | null;
  actorEmail: string | null;
  details: Record<string, unknown>;
}

async function admin(server: TestServer) {
  const user = await server.createUser({ roles: ['user', 'admin'] });
  return { ...user, token: (await signIn(server, user.email, user.password)).access_token };
}

async function customer(server: TestServer, options: { verified?: boolean } = {}) {
  const user = await server.createUser(options);
  const { access_token: token } = await signIn(server, user.email, user.password);
  return { ...user, token };
}

/** A customer whose yearly plan was paid at once (no trial), at the server's current time. */
async function subscriber(server: TestServer) {
  const user = await customer(server);
  const customerId = (await call(server, 'GET', '/api/subscription/paddle/customer', user.token)).json().id as string;
  const yearly = await strayPaidPlan(paddle, customerId, 'year');
  expect((await paddle.pay(yearly.id, TEST_CARDS.success)).status).toBe(200);
  await paddle.settle(server);
  const subscription = (await call(server, 'GET', '/api/subscription/user', user.token)).json();
  expect(subscription).toMatchObject({ status: 'active' });
  return { ...user, customerId, transactionId: yearly.id };
}

async function timeline(server: TestServer, token: string, userId: string): Promise<Entry[]> {
  const page = await call(server, 'GET', `/api/users/${userId}/activity?take=100`, token);
  expect(page.statusCode, page.body).toBe(200);
  return (page.json() as { data: Entry[] }).data;
}

const ofKind = (entries: Entry[], kind: string) => entries.filter((entry) => entry.kind === kind);

describeEachDatabase(
  'admin actions on the user page',
  (server) => {
    beforeAll(() => {
      paddle.deliverTo(server);
    });

    it('a plain user gets 403 on every new route, also for their own account; a visitor 401', async () => {
      const user = await customer(server());
      const other = await customer(server());
      const routes: ['GET' | 'POST', string, object | undefined][] = [
        ['POST', `/api/users/${other.id}/sessions/end`, undefined],
        ['POST', `/api/users/${user.id}/sessions/end`, undefined],
        ['POST', `/api/users/${other.id}/verification/resend`, undefined],
        ['POST', `/api/users/${other.id}/subscription/cancel`, { refund: true }],
        ['POST', `/api/users/${user.id}/subscription/cancel`, { refund: false }],
        ['POST', `/api/users/${other.id}/devices/${MISSING}/release`, undefined],
        ['GET', `/api/users/${other.id}/transactions/txn_abc/invoice`, undefined],
      ];
      for (const [method, url, payload] of routes) {
        const refused = await call(server(), method, url, user.token, payload ? { payload } : {});
        expect(refused.statusCode, `${method} ${url}`).toBe(403);
        expect(refused.json().messageKey).toBe('FORBIDDEN');
        expect((await call(server(), method, url, undefined, payload ? { payload } : {})).statusCode, `${method} ${url}`).toBe(401);
      }
      // Nothing happened to the other account: its sessions are live and its timeline has no admin entry.
      expect((await call(server(), 'GET', '/api/users/me', other.token)).statusCode).toBe(200);
    });

    it('an unknown user is 404 on every route, a malformed id or body is 400, never a 500', async () => {
      const boss = await admin(server());
      for (const url of [`/api/users/${MISSING}/sessions/end`, `/api/users/${MISSING}/verification/resend`, `/api/users/${MISSING}/devices/${MISSING}/release`]) {
        const missing = await call(server(), 'POST', url, boss.token);
        expect(missing.statusCode, url).toBe(404);
        expect(missing.json().messageKey, url).toBe('USER_NOT_FOUND');
      }
      const cancel = await call(server(), 'POST', `/api/users/${MISSING}/subscription/cancel`, boss.token, { payload: { refund: false } });
      expect(cancel.json().messageKey).toBe('USER_NOT_FOUND');
      expect((await call(server(), 'GET', `/api/users/${MISSING}/transactions/txn_abc/invoice`, boss.token)).json().messageKey).toBe('USER_NOT_FOUND');
      const user = await customer(server());
      for (const [url, payload] of [
        [`/api/users/not-a-uuid/sessions/end`, undefined],
        [`/api/users/${user.id}/devices/not-a-uuid/release`, undefined],
        [`/api/users/${user.id}/subscription/cancel`, undefined],
        [`/api/users/${user.id}/subscription/cancel`, { refund: 'yes' }],
        [`/api/users/${user.id}/subscription/cancel`, { refund: true, extra: 1 }],
      ] as const) {
        const bad = await call(server(), 'POST', url, boss.token, payload ? { payload } : {});
        expect(bad.statusCode, `${url} ${JSON.stringify(payload)}`).toBe(400);
      }
      expect((await call(server(), 'GET', `/api/users/${user.id}/transactions/not-a-transaction/invoice`, boss.token)).statusCode).toBe(400);
      const none = await call(server(), 'POST', `/api/users/${user.id}/subscription/cancel`, boss.token, { payload: { refund: false } });
      expect(none.statusCode).toBe(404);
      expect(none.json().messageKey).toBe('SUBSCRIPTION_NOT_FOUND');
    });

    it("ending a user's sessions refuses their tokens from the next request on, as their own sign-out does; logged once with the admin", async () => {
      const boss = await admin(server());
      const user = await customer(server());
      const remembered = await signIn(server(), user.email, user.password, true);
      expect((await call(server(), 'GET', '/api/users/me', user.token)).statusCode).toBe(200);

      const ended = await call(server(), 'POST', `/api/users/${user.id}/sessions/end`, boss.token);
      expect(ended.statusCode, ended.body).toBe(200);
      expect(ended.json()).toEqual({ ended: 2 });
      for (const token of [user.token, remembered.access_token]) {
        const refused = await call(server(), 'GET', '/api/users/me', token);
        expect(refused.statusCode).toBe(401);
        expect(refused.json().messageKey).toBe('SESSION_EXPIRED');
      }
      // The remembered sign-in's offline token renews nothing any more.
      const sessions = await server().db.kysely.selectFrom('sessions').select(['ended_reason']).where('user_id', '=', user.id).execute();
      expect(sessions.map((session) => session.ended_reason)).toEqual(['ended-by-admin', 'ended-by-admin']);
      const live = await server().db.kysely.selectFrom('refresh_tokens').select('id').where('user_id', '=', user.id).where('revoked_at', 'is', null).execute();
      expect(live).toEqual([]);

      // Nothing left to end: nothing more is logged.
      expect((await call(server(), 'POST', `/api/users/${user.id}/sessions/end`, boss.token)).json()).toEqual({ ended: 0 });
      const entries = ofKind(await timeline(server(), boss.token, user.id), 'sessions.ended');
      expect(entries).toEqual([expect.objectContaining({ actorId: boss.id, actorEmail: boss.email, details: { reason: 'ended-by-admin', count: 2 } })]);
      // Signing in again works: the account is untouched.
      expect((await signIn(server(), user.email, user.password)).access_token).toEqual(expect.any(String));
    });

    it('an admin ending their own sessions from their own page keeps the session they are using', async () => {
      const boss = await admin(server());
      const elsewhere = await signIn(server(), boss.email, boss.password);
      const ended = await call(server(), 'POST', `/api/users/${boss.id}/sessions/end`, boss.token);
      expect(ended.json()).toEqual({ ended: 1 });
      expect((await call(server(), 'GET', '/api/users/me', boss.token)).statusCode).toBe(200);
      expect((await call(server(), 'GET', '/api/users/me', elsewhere.access_token)).statusCode).toBe(401);
    });

    it('the verification mail is resent only to an unverified account, within the public resend limit, logged each time with the admin', async () => {
      const boss = await admin(server());
      const unverified = await server().createUser({ verified: false });
      const sent = await call(server(), 'POST', `/api/users/${unverified.id}/verification/resend`, boss.token);
      expect(sent.statusCode, sent.body).toBe(200);
      expect(sent.json()).toEqual({ sent: true });
      await server().app.jobs.idle();
      const mails = (await call(server(), 'GET', `/api/dev/outbox?to=${encodeURIComponent(unverified.email)}`)).json() as { text: string }[];
      expect(mails).toHaveLength(1);
      expect(mails[0]?.text).toMatch(/\b\d{6}\b/);
      expect(ofKind(await timeline(server(), boss.token, unverified.id), 'verification.resent')).toEqual([
        expect.objectContaining({ actorId: boss.id, actorEmail: boss.email }),
      ]);

      // The address's resend limit (5 an hour) counts the admin's resends with the public ones.
      for (let i = 0; i < 3; i += 1) expect((await call(server(), 'POST', `/api/users/${unverified.id}/verification/resend`, boss.token)).statusCode).toBe(200);
      const publicResend = await call(server(), 'GET', `/api/users/resendVerificationEmail/${encodeURIComponent(unverified.email)}`);
      expect(publicResend.statusCode, publicResend.body).toBe(200);
      const throttled = await call(server(), 'POST', `/api/users/${unverified.id}/verification/resend`, boss.token);
      expect(throttled.statusCode).toBe(429);
      expect(throttled.json().messageKey).toBe('TOO_MANY_REQUESTS');
      expect(ofKind(await timeline(server(), boss.token, unverified.id), 'verification.resent')).toHaveLength(4);

      const verified = await customer(server());
      const refused = await call(server(), 'POST', `/api/users/${verified.id}/verification/resend`, boss.token);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().messageKey).toBe('USER_ALREADY_VERIFIED');
      expect(ofKind(await timeline(server(), boss.token, verified.id), 'verification.resent')).toEqual([]);
    });

    it('cancelling at the end of the period: the customer keeps access until then; logged once with the admin', async () => {
      await paddle.travelTo(server(), TEST_NOW);
      const boss = await admin(server());
      const user = await subscriber(server());
      const cancelled = await call(server(), 'POST', `/api/users/${user.id}/subscription/cancel`, boss.token, { payload: { refund: false } });
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      expect(cancelled.json()).toMatchObject({ status: 'active', scheduledChange: { action: 'cancel' } });
      await paddle.settle(server());
      const entries = await timeline(server(), boss.token, user.id);
      expect(ofKind(entries, 'subscription.cancelled')).toEqual([
        expect.objectContaining({ actorId: boss.id, details: expect.objectContaining({ refund: false }) }),
      ]);
      expect(ofKind(entries, 'purchase.refunded')).toEqual([]);
      expect(await server().db.kysely.selectFrom('refunds').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    });

    it("a refund from the admin obeys the customer's window: within 14 days of the first payment it refunds in full; after, it is refused for both", async () => {
      await paddle.travelTo(server(), TEST_NOW);
      const boss = await admin(server());
      const inWindow = await subscriber(server());
      const late = await subscriber(server());

      // Day 14 minus a minute: still inside.
      await paddle.travelTo(server(), new Date(TEST_NOW.getTime() + 14 * DAY - 60_000));
      const { access_token: bossToken } = await signIn(server(), boss.email, boss.password);
      const refunded = await call(server(), 'POST', `/api/users/${inWindow.id}/subscription/cancel`, bossToken, { payload: { refund: true } });
      expect(refunded.statusCode, refunded.body).toBe(200);
      expect(refunded.json()).toMatchObject({ status: 'canceled', refund: null });
      await paddle.settle(server());
      const refunds = await server().db.kysely.selectFrom('refunds').selectAll().where('user_id', '=', inWindow.id).execute();
      expect(refunds).toEqual([expect.objectContaining({ transaction_id: inWindow.transactionId, reason: 'customer', status: 'approved', amount: PLAN_PRICES.year })]);
      const entries = await timeline(server(), bossToken, inWindow.id);
      expect(ofKind(entries, 'purchase.refunded')).toEqual([
        expect.objectContaining({ actorId: boss.id, actorEmail: boss.email, details: expect.objectContaining({ refundedTransactionIds: [inWindow.transactionId], amount: PLAN_PRICES.year }) }),
      ]);
      expect(ofKind(entries, 'subscription.cancelled')).toEqual([expect.objectContaining({ actorId: boss.id, details: expect.objectContaining({ refund: true }) })]);
      // Done is done: asked again, nothing more is refunded.
      expect((await call(server(), 'POST', `/api/users/${inWindow.id}/subscription/cancel`, bossToken, { payload: { refund: true } })).statusCode).toBe(404);

      // Day 14 plus a minute: closed, for the admin exactly as for the customer.
      await paddle.travelTo(server(), new Date(TEST_NOW.getTime() + 14 * DAY + 60_000));
      const { access_token: lateBoss } = await signIn(server(), boss.email, boss.password);
      const { access_token: lateToken } = await signIn(server(), late.email, late.password);
      const byAdmin = await call(server(), 'POST', `/api/users/${late.id}/subscription/cancel`, lateBoss, { payload: { refund: true } });
      expect(byAdmin.statusCode).toBe(409);
      expect(byAdmin.json().messageKey).toBe('REFUND_WINDOW_CLOSED');
      const byCustomer = await call(server(), 'POST', '/api/subscription/cancel', lateToken, { payload: { refund: true } });
      expect(byCustomer.statusCode).toBe(409);
      expect(byCustomer.json().messageKey).toBe('REFUND_WINDOW_CLOSED');
      expect(await server().db.kysely.selectFrom('refunds').select('id').where('user_id', '=', late.id).execute()).toEqual([]);
      expect(ofKind(await timeline(server(), lateBoss, late.id), 'subscription.cancelled')).toEqual([]);
      await paddle.travelTo(server(), TEST_NOW);
    });

    it('four refund requests at once (double clicks; the admin and the customer) refund once and log once', async () => {
      await paddle.travelTo(server(), TEST_NOW);
      const boss = await admin(server());
      for (const second of ['admin', 'customer'] as const) {
        const user = await subscriber(server());
        const answers = await Promise.all([
          call(server(), 'POST', `/api/users/${user.id}/subscription/cancel`, boss.token, { payload: { refund: true } }),
          call(server(), 'POST', `/api/users/${user.id}/subscription/cancel`, boss.token, { payload: { refund: true } }),
          call(server(), 'POST', `/api/users/${user.id}/subscription/cancel`, boss.token, { payload: { refund: true } }),
          second === 'admin'
            ? call(server(), 'POST', `/api/users/${user.id}/subscription/cancel`, boss.token, { payload: { refund: true } })
            : call(server(), 'POST', '/api/subscription/cancel', user.token, { payload: { refund: true } }),
        ]);
        const statuses = answers.map((answer) => answer.statusCode).sort();
        expect(statuses[0], answers.map((answer) => answer.body).join('\n')).toBe(200);
        // The other found it done: nothing left to refund (409), or the subscription already ended (404).
        for (const status of statuses.slice(1)) expect([404, 409], answers.map((answer) => answer.body).join('\n')).toContain(status);
        await paddle.settle(server());
        const refunds = await server().db.kysely.selectFrom('refunds').select(['transaction_id', 'status']).where('user_id', '=', user.id).execute();
        expect(refunds).toEqual([{ transaction_id: user.transactionId, status: 'approved' }]);
        const entries = await timeline(server(), boss.token, user.id);
        expect(ofKind(entries, 'purchase.refunded'), second).toHaveLength(1);
        expect(ofKind(entries, 'subscription.cancelled'), second).toHaveLength(1);
      }
    });

    it("releasing a device frees its seat for another computer and kills its token; another user's device is 404; logged once with the admin", async () => {
      await paddle.travelTo(server(), TEST_NOW);
      const boss = await admin(server());
      const owner = await paddle.buyer(server(), { priceId: PRICE_IDS.perpetual2025 });
      await paddle.settle(server());
      const first = await call(server(), 'POST', '/api/desktop/activate', owner.token, { payload: { computerId: 'pc-1', name: 'Studio PC' } });
      expect(first.statusCode, first.body).toBe(200);
      expect((await call(server(), 'POST', '/api/desktop/activate', owner.token, { payload: { computerId: 'pc-2', name: 'Laptop' } })).statusCode).toBe(200);
      const full = await call(server(), 'POST', '/api/desktop/activate', owner.token, { payload: { computerId: 'pc-3', name: 'Office' } });
      expect(full.json().messageKey).toBe('SEAT_LIMIT_REACHED');

      const stranger = await customer(server());
      const notTheirs = await call(server(), 'POST', `/api/users/${stranger.id}/devices/${first.json().seat.id}/release`, boss.token);
      expect(notTheirs.statusCode).toBe(404);
      expect(notTheirs.json().messageKey).toBe('DEVICE_NOT_FOUND');

      const released = await call(server(), 'POST', `/api/users/${owner.user.id}/devices/${first.json().seat.id}/release`, boss.token);
      expect(released.statusCode, released.body).toBe(200);
      expect(released.json()).toEqual({ released: true });
      const heartbeat = await server().app.inject({ method: 'POST', url: '/api/desktop/heartbeat', headers: { authorization: `Bearer ${first.json().deviceToken}` }, payload: {} });
      expect(heartbeat.statusCode).toBe(401);
      const seats = (await call(server(), 'GET', '/api/perpetual/seats', owner.token)).json();
      expect(seats.seats.map((seat: { computerId: string }) => seat.computerId)).toEqual(['pc-2']);
      expect((await call(server(), 'POST', '/api/desktop/activate', owner.token, { payload: { computerId: 'pc-3', name: 'Office' } })).statusCode).toBe(200);

      const again = await call(server(), 'POST', `/api/users/${owner.user.id}/devices/${first.json().seat.id}/release`, boss.token);
      expect(again.statusCode).toBe(404);
      expect(again.json().messageKey).toBe('DEVICE_NOT_FOUND');
      expect(ofKind(await timeline(server(), boss.token, owner.user.id), 'device.released')).toEqual([
        expect.objectContaining({ actorId: boss.id, actorEmail: boss.email, details: expect.objectContaining({ name: 'Studio PC', computerId: 'pc-1' }) }),
      ]);
    });

    it("an invoice of one of the user's payments opens for the admin; another user's payment is 404", async () => {
      await paddle.travelTo(server(), TEST_NOW);
      const boss = await admin(server());
      const user = await subscriber(server());
      const link = await call(server(), 'GET', `/api/users/${user.id}/transactions/${user.transactionId}/invoice`, boss.token);
      expect(link.statusCode, link.body).toBe(200);
      expect(link.json().url).toMatch(/^https?:\/\//);
      const stranger = await customer(server());
      const refused = await call(server(), 'GET', `/api/users/${stranger.id}/transactions/${user.transactionId}/invoice`, boss.token);
      expect(refused.statusCode).toBe(404);
      expect(refused.json().messageKey).toBe('INVOICE_NOT_FOUND');
    });

    it('roles from the user page: the grid\'s rules (not yourself, not the last admin), logged with the admin', async () => {
      const boss = await admin(server());
      const user = await customer(server());
      expect((await call(server(), 'PATCH', `/api/users/${user.id}`, boss.token, { payload: { roles: ['user', 'admin'] } })).statusCode).toBe(200);
      const self = await call(server(), 'PATCH', `/api/users/${boss.id}`, boss.token, { payload: { roles: ['user'] } });
      expect(self.statusCode).toBe(409);
      expect(self.json().messageKey).toBe('CANNOT_MODIFY_SELF');
      expect(ofKind(await timeline(server(), boss.token, user.id), 'roles.changed')).toEqual([expect.objectContaining({ actorId: boss.id })]);
    });
  },
  () => ({ billing: paddle.billing }),
);
