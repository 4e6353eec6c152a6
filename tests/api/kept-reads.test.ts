import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOLDINGS_MAX_AGE_MS } from '../../server/modules/entitlements/index.js';
import { SIGNED_IN_MAX_AGE_MS } from '../../server/modules/users/index.js';
import { PRICE_IDS } from '../../server/sandbox/catalogue.js';
import { TEST_CARDS } from '../../server/sandbox/purchases.js';
import { call, startSandbox } from '../fixtures/paddle.js';
import { DATABASE_KINDS, signIn, startTestServer, TEST_NOW, type TestServer } from '../fixtures/server.js';
import { codeAt } from '../fixtures/two-factor.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * Issue 45: what only writes change is kept by the instance (the signed-in user and session, what a user
 * holds, the release line and builds) and forgotten by every write that changes it, so each answer below
 * is the one a fresh read would give, from the very next request. Each test first makes the instance keep
 * the answer (a request before the change), then changes it through the route that does so, then asks
 * again. Removing any of the invalidations (server/app.ts `forgetOn`, and the announcements it hears)
 * fails the test of its rule.
 */
let paddle: Awaited<ReturnType<typeof startSandbox>>;

beforeAll(async () => {
  paddle = await startSandbox();
});
afterAll(async () => {
  await paddle?.sandbox.close();
});

async function newUser(server: TestServer, roles: ('user' | 'admin')[] = ['user']) {
  const user = await server.createUser({ roles });
  const { access_token: token } = await signIn(server, user.email, user.password);
  return { ...user, token };
}

const me = (server: TestServer, token: string) => call(server, 'GET', '/api/users/me', token);
const heartbeat = (server: TestServer, deviceToken: string, payload: object = {}) => call(server, 'POST', '/api/desktop/heartbeat', deviceToken, { payload });

async function deviceOf(server: TestServer, token: string): Promise<string> {
  const activated = await call(server, 'POST', '/api/desktop/activate', token, { payload: { computerId: `pc-${randomUUID().slice(0, 8)}`, name: 'Studio PC' } });
  expect(activated.statusCode, activated.body).toBe(200);
  return activated.json<{ deviceToken: string }>().deviceToken;
}

async function coupon(server: TestServer, admin: string, input: { grant: 'licence'; release: string } | { grant: 'access'; days: number }) {
  const code = `K${randomUUID().slice(0, 8)}`.toUpperCase();
  const created = await call(server, 'POST', '/api/coupons', admin, { payload: { ...input, code } });
  expect(created.statusCode, created.body).toBe(200);
  return code;
}

/**
 * Runs `act` with Paddle's webhooks held back, then delivers them: what `act` shows is then the portal's own
 * doing, not the webhook that follows it (which would also make every instance forget).
 */
async function withWebhooksHeld<T>(server: TestServer, act: () => Promise<T>): Promise<T> {
  const held: { rawBody: string; signature: string }[] = [];
  paddle.sandbox.deliverTo(async (rawBody, signature) => {
    held.push({ rawBody, signature });
  });
  try {
    return await act();
  } finally {
    paddle.deliverTo(() => server);
    for (const { rawBody, signature } of held) {
      await server.app.inject({ method: 'POST', url: '/api/paddle/webhook', payload: rawBody, headers: { 'content-type': 'application/json', 'paddle-signature': signature } });
    }
  }
}

async function redeem(server: TestServer, token: string, code: string) {
  const redeemed = await call(server, 'POST', '/api/coupons/redeem', token, { payload: { code } });
  expect(redeemed.statusCode, redeemed.body).toBe(200);
}

describeEachDatabase(
  'kept signed-in users',
  (server) => {
    it('a sign-out refuses the token from the next request', async () => {
      const user = await newUser(server());
      expect((await me(server(), user.token)).statusCode).toBe(200);
      expect((await call(server(), 'POST', '/api/auth/logout', user.token, { payload: {} })).statusCode).toBeLessThan(300);
      expect((await me(server(), user.token)).statusCode).toBe(401);
    });

    it('a session ended from another device, or all of them by an admin, is refused from the next request', async () => {
      const user = await newUser(server());
      const other = await signIn(server(), user.email, user.password);
      expect((await me(server(), other.access_token)).statusCode).toBe(200);
      const sessions = (await call(server(), 'GET', '/api/users/me/sessions', user.token)).json<{ id: string; current: boolean }[]>();
      const otherSession = sessions.find((session) => !session.current);
      expect((await call(server(), 'DELETE', `/api/users/me/sessions/${String(otherSession?.id)}`, user.token)).statusCode).toBe(204);
      expect((await me(server(), other.access_token)).statusCode).toBe(401);

      const admin = await newUser(server(), ['user', 'admin']);
      expect((await me(server(), user.token)).statusCode).toBe(200);
      expect((await call(server(), 'POST', `/api/users/${user.id}/sessions/end`, admin.token, { payload: {} })).statusCode).toBe(200);
      expect((await me(server(), user.token)).statusCode).toBe(401);
    });

    it('a demoted admin loses the admin routes, and a promoted user gains them, from the next request', async () => {
      const boss = await newUser(server(), ['user', 'admin']);
      const admin = await newUser(server(), ['user', 'admin']);
      expect((await call(server(), 'GET', '/api/users', admin.token)).statusCode).toBe(200);
      expect((await call(server(), 'PATCH', `/api/users/${admin.id}`, boss.token, { payload: { roles: ['user'] } })).statusCode).toBe(200);
      expect((await call(server(), 'GET', '/api/users', admin.token)).statusCode).toBe(403);
      expect((await me(server(), admin.token)).json().roles).toEqual(['user']);
      expect((await call(server(), 'PATCH', `/api/users/${admin.id}`, boss.token, { payload: { roles: ['user', 'admin'] } })).statusCode).toBe(200);
      expect((await call(server(), 'GET', '/api/users', admin.token)).statusCode).toBe(200);
    });

    it('a deleted account is refused from the next request, deleted by an admin or by its owner', async () => {
      const boss = await newUser(server(), ['user', 'admin']);
      const user = await newUser(server());
      expect((await me(server(), user.token)).statusCode).toBe(200);
      expect((await call(server(), 'DELETE', `/api/users/${user.id}`, boss.token)).statusCode).toBe(200);
      expect((await me(server(), user.token)).statusCode).toBe(401);

      const owner = await newUser(server());
      expect((await me(server(), owner.token)).statusCode).toBe(200);
      const deleted = await call(server(), 'DELETE', '/api/users/me', owner.token, { payload: { password: owner.password } });
      expect(deleted.statusCode, deleted.body).toBe(204);
      expect((await me(server(), owner.token)).statusCode).toBe(401);
    });

    it('a password change refuses every token issued before it, this session’s old one too, from the next request', async () => {
      const user = await newUser(server());
      const other = await signIn(server(), user.email, user.password);
      expect((await me(server(), other.access_token)).statusCode).toBe(200);
      // Tokens carry their issue time in seconds: the change comes a second later.
      server().clock.advance(1);
      const changed = await call(server(), 'PATCH', '/api/users/password', user.token, { payload: { password: 'a new secret 42', oldPassword: user.password } });
      expect(changed.statusCode, changed.body).toBe(200);
      expect((await me(server(), other.access_token)).statusCode).toBe(401);
      expect((await me(server(), user.token)).json().messageKey).toBe('SESSION_EXPIRED');
      expect((await me(server(), changed.json<{ access_token: string }>().access_token)).statusCode).toBe(200);
    });

    it('a profile change and a second factor show in /users/me from the next request', async () => {
      const user = await newUser(server());
      expect((await me(server(), user.token)).json()).toMatchObject({ firstName: 'Test', twoFactorEnabled: false });
      expect((await call(server(), 'PATCH', '/api/users/me', user.token, { payload: { firstName: 'Grace' } })).statusCode).toBe(200);
      expect((await me(server(), user.token)).json().firstName).toBe('Grace');

      const setup = await call(server(), 'POST', '/api/users/me/two-factor/totp', user.token);
      const confirmed = await call(server(), 'POST', '/api/users/me/two-factor/totp/confirm', user.token, {
        payload: { code: codeAt(setup.json<{ secret: string }>().secret, server().clock.now()) },
      });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      expect((await me(server(), user.token)).json().twoFactorEnabled).toBe(true);
    });

    it('whatever the bus says, nothing signed-in is served older than SIGNED_IN_MAX_AGE_MS (a notification lost unnoticed)', async () => {
      const user = await newUser(server());
      expect((await me(server(), user.token)).statusCode).toBe(200);
      // Another instance ends the session and its notification never arrives: the kept answer stands...
      await server().db.kysely.updateTable('sessions').set({ ended_at: server().clock.now().toISOString(), ended_reason: 'signed-out' }).where('user_id', '=', user.id).execute();
      expect((await me(server(), user.token)).statusCode).toBe(200);
      // ...for at most the bound.
      server().clock.advance(SIGNED_IN_MAX_AGE_MS / 1000);
      expect((await me(server(), user.token)).statusCode).toBe(401);
    });
  },
  () => ({ billing: paddle.billing }),
);

describeEachDatabase(
  'kept holdings: /users/me’s billing facts and the desktop’s entitlement',
  (server) => {
    beforeAll(() => {
      paddle.deliverTo(server);
    });

    it('a coupon’s licence shows in the upgrade price and the heartbeat from the next request', async () => {
      const admin = await newUser(server(), ['user', 'admin']);
      const user = await newUser(server());
      const device = await deviceOf(server(), user.token);
      expect((await me(server(), user.token)).json().eligibleForDiscountBasedOnPreviousVersion).toBe(false);
      expect((await heartbeat(server(), device)).json().entitlement.plan).toBe('basic');
      // The 2024 release, the one before the current (2025): the upgrade price is theirs now.
      await redeem(server(), user.token, await coupon(server(), admin.token, { grant: 'licence', release: '2024' }));
      expect((await me(server(), user.token)).json().eligibleForDiscountBasedOnPreviousVersion).toBe(true);
      expect((await heartbeat(server(), device)).json().entitlement).toMatchObject({ plan: 'perpetual', releases: ['2024'], exportEnabled: true });
    });

    it('coupon access shows in the heartbeat from the next request, and ends by the clock', async () => {
      const admin = await newUser(server(), ['user', 'admin']);
      const user = await newUser(server());
      const device = await deviceOf(server(), user.token);
      expect((await heartbeat(server(), device)).json().entitlement.plan).toBe('basic');
      await redeem(server(), user.token, await coupon(server(), admin.token, { grant: 'access', days: 1 }));
      const access = (await heartbeat(server(), device)).json().entitlement;
      expect(access).toMatchObject({ plan: 'access', exportEnabled: true });
      const start = server().clock.now();
      try {
        server().clock.set(new Date(Date.parse(access.accessEndsAt) - 1000));
        expect((await heartbeat(server(), device)).json().entitlement.plan).toBe('access');
        server().clock.set(new Date(access.accessEndsAt));
        expect((await heartbeat(server(), device)).json().entitlement.plan).toBe('basic');
      } finally {
        server().clock.set(start);
      }
    });

    it('a subscription bought, cancelled and a licence returned show from the next request', async () => {
      await paddle.travelTo(server(), TEST_NOW);
      const user = await newUser(server());
      const device = await deviceOf(server(), user.token);
      expect((await me(server(), user.token)).json().subscriptionId).toBeNull();
      expect((await heartbeat(server(), device)).json().entitlement.plan).toBe('basic');
      const customerId = (await call(server(), 'GET', '/api/subscription/paddle/customer', user.token)).json().id as string;

      // A subscription event, by Paddle's webhook.
      const checkout = await paddle.paddle.transactions.create({ items: [{ priceId: PRICE_IDS.monthly, quantity: 1 }], customerId });
      expect((await paddle.pay(checkout.id, TEST_CARDS.success)).status).toBe(200);
      await paddle.settle(server());
      const subscriptionId = (await me(server(), user.token)).json().subscriptionId as string;
      expect(subscriptionId).toMatch(/^sub_/);
      expect((await heartbeat(server(), device)).json().entitlement.items).toEqual([expect.objectContaining({ kind: 'subscription', endsAt: null })]);

      // The customer's own cancellation: Paddle's answer is kept, before its webhook arrives.
      await withWebhooksHeld(server(), async () => {
        const cancelled = await call(server(), 'POST', '/api/subscription/cancel', user.token, { payload: {} });
        expect(cancelled.statusCode, cancelled.body).toBe(200);
        expect((await heartbeat(server(), device)).json().entitlement.items).toEqual([expect.objectContaining({ kind: 'subscription', endsAt: expect.any(String) })]);
      });
      await paddle.settle(server());

      // A licence bought and returned within 14 days.
      const bought = await paddle.paddle.transactions.create({ items: [{ priceId: PRICE_IDS.perpetual2025, quantity: 1 }], customerId });
      expect((await paddle.pay(bought.id, TEST_CARDS.success)).status).toBe(200);
      await paddle.settle(server());
      expect((await heartbeat(server(), device)).json().entitlement.releases).toEqual(['2025']);
      const licences = (await call(server(), 'GET', '/api/perpetual/license', user.token)).json() as { licenceId: string; source: string }[];
      const licence = licences.find((candidate) => candidate.source === 'purchase');
      // Returned: the licence stops unlocking from the next request, whatever Paddle's refund and its webhooks do.
      await withWebhooksHeld(server(), async () => {
        const returned = await call(server(), 'POST', `/api/perpetual/license/${String(licence?.licenceId)}/return`, user.token);
        expect(returned.statusCode, returned.body).toBe(200);
        expect((await heartbeat(server(), device)).json().entitlement.releases).toEqual([]);
      });
      await paddle.settle(server());
    });

    it('whatever the bus says, nothing a user holds is served older than HOLDINGS_MAX_AGE_MS', async () => {
      const user = await newUser(server());
      const device = await deviceOf(server(), user.token);
      expect((await heartbeat(server(), device)).json().entitlement.plan).toBe('basic');
      const now = server().clock.now().toISOString();
      // Granted elsewhere, its notification lost: the kept answer stands for at most the bound.
      await server()
        .db.kysely.insertInto('licences')
        .values({ id: randomUUID(), user_id: user.id, source: 'coupon', edition: 'full', channel: 'coupon', release: '2025', updates_until: null, transaction_id: null, product_id: null, price_id: null, source_ref: 'LOST', granted_at: now })
        .execute();
      expect((await heartbeat(server(), device)).json().entitlement.plan).toBe('basic');
      server().clock.advance(HOLDINGS_MAX_AGE_MS / 1000);
      expect((await heartbeat(server(), device)).json().entitlement.plan).toBe('perpetual');
    });
  },
  () => ({ billing: paddle.billing }),
);

describeEachDatabase('kept release line and builds', (server) => {
  const build = (release: string, version: string, publishedAt: Date) => ({
    release,
    version,
    platform: 'windows',
    url: `https://downloads.shapelab.app/${version}/Shapelab-${version}-windows.exe`,
    publishedAt: publishedAt.toISOString(),
  });

  it('a release published moves the upgrade price and the builds the heartbeat knows, from the next request', async () => {
    const admin = await newUser(server(), ['user', 'admin']);
    const user = await newUser(server());
    const device = await deviceOf(server(), user.token);
    await redeem(server(), user.token, await coupon(server(), admin.token, { grant: 'licence', release: '2025' }));
    // 2025 is current and theirs: no upgrade price. A 2026 build the portal does not know is not refused.
    expect((await me(server(), user.token)).json().eligibleForDiscountBasedOnPreviousVersion).toBe(false);
    expect((await heartbeat(server(), device, { version: '2026.1.0' })).json().entitlement.plan).toBe('perpetual');

    const added = await call(server(), 'POST', '/api/releases', admin.token, { payload: build('2026', '2026.1.0', server().clock.now()) });
    expect(added.statusCode, added.body).toBe(200);
    expect((await me(server(), user.token)).json().eligibleForDiscountBasedOnPreviousVersion).toBe(true);
    expect((await heartbeat(server(), device, { version: '2026.1.0' })).json().entitlement.plan).toBe('basic');
  });

  it('a build scheduled for later moves the release line when its time comes, with no write', async () => {
    const admin = await newUser(server(), ['user', 'admin']);
    const user = await newUser(server());
    await redeem(server(), user.token, await coupon(server(), admin.token, { grant: 'licence', release: '2026' }));
    const soon = new Date(server().clock.now().getTime() + 10_000);
    expect((await call(server(), 'POST', '/api/releases', admin.token, { payload: build('2027', '2027.1.0', soon) })).statusCode).toBe(200);
    expect((await me(server(), user.token)).json().eligibleForDiscountBasedOnPreviousVersion).toBe(false);
    // Well within the kept answers' age bound: only the line's own end makes this change.
    server().clock.advance(11);
    expect((await me(server(), user.token)).json().eligibleForDiscountBasedOnPreviousVersion).toBe(true);
  });
});

describe.skipIf(!DATABASE_KINDS.includes('postgres'))('kept signed-in users on PostgreSQL', () => {
  let running: TestServer | undefined;
  const server = () => {
    if (!running) throw new Error('server not started');
    return running;
  };
  beforeAll(async () => {
    running = await startTestServer('postgres');
  });
  afterAll(async () => {
    await running?.close();
  });

  it('an instance whose listening connection is lost forgets what it kept, and answers from the database until it listens again', async () => {
    const user = await newUser(server());
    expect((await me(server(), user.token)).statusCode).toBe(200);
    // Another instance ends the session; this one's connection dies before the notification reaches it.
    await server().db.kysely.updateTable('sessions').set({ ended_at: server().clock.now().toISOString(), ended_reason: 'signed-out' }).where('user_id', '=', user.id).execute();
    const url = (server().config.database as { url: string }).url;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and (query ilike 'LISTEN%' or query ilike '%pg_notify%')");
    } finally {
      await admin.end();
    }
    await expect.poll(() => server().app.bus.connected, { timeout: 5_000, interval: 5 }).toBe(false);
    expect((await me(server(), user.token)).statusCode).toBe(401);
    await expect.poll(() => server().app.bus.connected, { timeout: 15_000, interval: 20 }).toBe(true);
    expect((await me(server(), user.token)).statusCode).toBe(401);
  });
});
