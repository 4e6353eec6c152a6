import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PRICE_IDS } from '../../server/sandbox/catalogue.js';
import { TEST_CARDS } from '../../server/sandbox/purchases.js';
import { call, startSandbox } from '../fixtures/paddle.js';
import { signIn, TEST_NOW, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * What a purchase entitles a user to and how the desktop application claims it: licences granted by
 * the payment webhook, seats (two per entitlement) that hold under concurrent activations, device
 * tokens that die with their seat, coupons that grant once, entitlement flags that follow the clock.
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

async function adminToken(server: TestServer) {
  return (await newUser(server, ['user', 'admin'])).token;
}

function activate(server: TestServer, token: string, computerId: string, extra: { name?: string; replace?: boolean } = {}) {
  return call(server, 'POST', '/api/desktop/activate', token, { payload: { computerId, name: extra.name ?? `PC ${computerId}`, ...(extra.replace ? { replace: true } : {}) } });
}

function heartbeat(server: TestServer, deviceToken: string, payload: object = {}) {
  return call(server, 'POST', '/api/desktop/heartbeat', deviceToken, { payload });
}

async function coupon(server: TestServer, input: Record<string, unknown>) {
  const code = (input.code as string | undefined) ?? `C${randomUUID().slice(0, 8)}`.toUpperCase();
  const created = await call(server, 'POST', '/api/coupons', await adminToken(server), { payload: { ...input, code } });
  expect(created.statusCode, created.body).toBe(200);
  return code;
}

const redeem = (server: TestServer, token: string, code: string, language = 'en') => call(server, 'POST', '/api/coupons/redeem', token, { payload: { code }, language });

describeEachDatabase(
  'licences, seats and the desktop API',
  (server) => {
    beforeAll(() => {
      paddle.deliverTo(server);
    });

    it('a bought release is a licence with its updates until the end of the next year; each licence is two seats, two are four', async () => {
      await paddle.travelTo(server(), TEST_NOW);
      const { user, token, customerId } = await paddle.buyer(server(), { priceId: PRICE_IDS.perpetual2024 });
      const licences = (await call(server(), 'GET', '/api/perpetual/license', token)).json();
      expect(licences).toEqual([expect.objectContaining({ release: '2024', source: 'purchase', updatesUntil: '2025-12-31T23:59:59.999Z' })]);
      // A webhook delivered again grants nothing more.
      await paddle.sandbox.flush();
      expect((await call(server(), 'GET', '/api/perpetual/license', token)).json()).toHaveLength(1);

      expect((await activate(server(), token, 'pc-1')).statusCode).toBe(200);
      expect((await activate(server(), token, 'pc-2')).statusCode).toBe(200);
      const third = await activate(server(), token, 'pc-3');
      expect(third.statusCode).toBe(409);
      expect(third.json().messageKey).toBe('SEAT_LIMIT_REACHED');

      // A second licence: four devices at once.
      const checkout = await paddle.paddle.transactions.create({ items: [{ priceId: PRICE_IDS.perpetual2025, quantity: 1 }], customerId });
      expect((await paddle.pay(checkout.id, TEST_CARDS.success)).status).toBe(200);
      await paddle.sandbox.flush();
      const seats = await call(server(), 'GET', '/api/perpetual/seats', token);
      expect(seats.json()).toMatchObject({ limit: 4, seats: [{ computerId: 'pc-1' }, { computerId: 'pc-2' }] });
      expect((await activate(server(), token, 'pc-3')).statusCode).toBe(200);
      expect((await activate(server(), token, 'pc-4')).statusCode).toBe(200);
      expect((await activate(server(), token, 'pc-5')).json().messageKey).toBe('SEAT_LIMIT_REACHED');
      expect((await call(server(), 'GET', `/api/perpetual/license?UserId=${user.id}`, token)).json().map((l: { release: string }) => l.release).sort()).toEqual(['2024', '2025']);
    });

    it('twenty concurrent activations never take more seats than the limit', async () => {
      const { token } = await newUser(server());
      const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => activate(server(), token, `race-${index}`)));
      const codes = answers.map((answer) => answer.statusCode).sort();
      expect(codes.filter((code) => code === 200)).toHaveLength(2);
      expect(answers.filter((answer) => answer.statusCode !== 200).map((answer) => answer.json().messageKey)).toEqual(Array(18).fill('SEAT_LIMIT_REACHED'));
      expect((await call(server(), 'GET', '/api/perpetual/seats', token)).json().seats).toHaveLength(2);
    });

    it('releasing frees the seat and kills its device token at once; another user’s seat can be neither released nor seen', async () => {
      const owner = await newUser(server());
      const first = (await activate(server(), owner.token, 'desk')).json();
      const second = (await activate(server(), owner.token, 'laptop')).json();
      expect((await heartbeat(server(), first.deviceToken)).statusCode).toBe(200);

      const stranger = await newUser(server());
      const theirs = await call(server(), 'DELETE', `/api/perpetual/seats?id=${first.seat.id}`, stranger.token, { language: 'de' });
      expect(theirs.statusCode).toBe(404);
      expect(theirs.json()).toEqual({ messageKey: 'SEAT_NOT_FOUND', message: 'Dieser Platz gehört nicht dir oder existiert nicht.' });
      expect((await call(server(), 'GET', '/api/perpetual/seats', stranger.token)).json()).toEqual({ seats: [], limit: 2 });
      expect((await call(server(), 'DELETE', `/api/perpetual/seats?id=${randomUUID()}`, owner.token)).json().messageKey).toBe('SEAT_NOT_FOUND');
      expect((await call(server(), 'DELETE', '/api/perpetual/seats?id=not-a-uuid', owner.token)).statusCode).toBe(400);

      const released = await call(server(), 'DELETE', `/api/perpetual/seats?id=${first.seat.id}`, owner.token);
      expect(released.statusCode, released.body).toBe(200);
      const dead = await heartbeat(server(), first.deviceToken);
      expect(dead.statusCode).toBe(401);
      expect(dead.json().messageKey).toBe('DEVICE_TOKEN_INVALID');
      expect((await heartbeat(server(), second.deviceToken)).statusCode).toBe(200);
      // The freed seat takes a new device.
      expect((await activate(server(), owner.token, 'studio')).statusCode).toBe(200);
      expect((await call(server(), 'GET', '/api/perpetual/seats', owner.token)).json().seats.map((s: { computerId: string }) => s.computerId).sort()).toEqual(['laptop', 'studio']);
    });

    it('a computer already attached is refused, unless it asks for a new token (the old one dies)', async () => {
      const { token } = await newUser(server());
      const first = (await activate(server(), token, 'pc-x')).json();
      const again = await activate(server(), token, 'pc-x', { name: 'Renamed' });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ messageKey: 'DEVICE_ALREADY_ATTACHED', message: 'This device is already attached to your account.' });
      const replaced = await activate(server(), token, 'pc-x', { name: 'Renamed', replace: true });
      expect(replaced.statusCode).toBe(200);
      expect(replaced.json().seat).toMatchObject({ id: first.seat.id, name: 'Renamed' });
      expect((await heartbeat(server(), first.deviceToken)).statusCode).toBe(401);
      expect((await heartbeat(server(), replaced.json().deviceToken)).statusCode).toBe(200);
      // Nothing else reaches the desktop API: no token, a user's access token, a made-up device token.
      expect((await heartbeat(server(), '')).statusCode).toBe(401);
      expect((await heartbeat(server(), token)).statusCode).toBe(401);
      expect((await heartbeat(server(), `sld_${'A'.repeat(43)}`)).statusCode).toBe(401);
      expect((await call(server(), 'POST', '/api/desktop/activate', token, { payload: { computerId: 'bad id with spaces', name: 'x' } })).statusCode).toBe(400);
    });

    it('entitlement flags follow the plan, and a trial’s end by the clock', async () => {
      const user = await newUser(server());
      const { deviceToken } = (await activate(server(), user.token, 'trial-pc')).json();
      expect((await heartbeat(server(), deviceToken)).json().entitlement).toEqual({
        plan: 'basic',
        trialEndsAt: null,
        accessEndsAt: null,
        exportEnabled: false,
        saveEnabled: false,
        releases: [],
        items: [],
      });
      const trialEnds = new Date(server().clock.now().getTime() + 14 * DAY);
      const now = server().clock.now().toISOString();
      await server()
        .db.kysely.insertInto('subscriptions')
        .values({
          id: `sub_${randomUUID().replaceAll('-', '')}`,
          customer_id: 'ctm_test',
          user_id: user.id,
          status: 'trialing',
          price_id: PRICE_IDS.monthly,
          billing_interval: 'month',
          currency_code: 'USD',
          current_period_starts_at: now,
          current_period_ends_at: trialEnds.toISOString(),
          next_billed_at: trialEnds.toISOString(),
          trial_ends_at: trialEnds.toISOString(),
          scheduled_change_action: null,
          scheduled_change_at: null,
          canceled_at: null,
          created_at: now,
          last_event_at: now,
        })
        .execute();
      server().app.bus.announce({ kind: 'holdings-changed', userId: user.id });
      expect((await heartbeat(server(), deviceToken)).json().entitlement).toMatchObject({
        plan: 'trial',
        trialEndsAt: trialEnds.toISOString(),
        exportEnabled: true,
        saveEnabled: true,
      });
      const start = server().clock.now();
      try {
        server().clock.set(new Date(trialEnds.getTime() - 1000));
        expect((await heartbeat(server(), deviceToken)).json().entitlement).toMatchObject({ plan: 'trial', exportEnabled: true });
        server().clock.set(trialEnds);
        expect((await heartbeat(server(), deviceToken)).json().entitlement).toMatchObject({ plan: 'trial', exportEnabled: false, saveEnabled: false });
        await server().db.kysely.updateTable('subscriptions').set({ status: 'active' }).where('user_id', '=', user.id).execute();
        server().app.bus.announce({ kind: 'holdings-changed', userId: user.id });
        expect((await heartbeat(server(), deviceToken)).json().entitlement).toMatchObject({ plan: 'subscription', exportEnabled: true, saveEnabled: true });
      } finally {
        server().clock.set(start);
      }
    });

    it('a perpetual licence enables the builds of its release line published before its updates end', async () => {
      const user = await newUser(server());
      await redeem(server(), user.token, await coupon(server(), { grant: 'licence', release: '2024' }));
      const { deviceToken } = (await activate(server(), user.token, 'pc-lic')).json();
      expect((await heartbeat(server(), deviceToken)).json().entitlement).toMatchObject({ plan: 'perpetual', exportEnabled: true, releases: ['2024'] });
      // 2024.2.3 came out in 2025: a free update. 2025.1.0 is the next release line: not covered.
      expect((await heartbeat(server(), deviceToken, { version: '2024.2.3' })).json().entitlement).toMatchObject({ plan: 'perpetual', saveEnabled: true });
      expect((await heartbeat(server(), deviceToken, { version: '2025.1.0' })).json().entitlement).toMatchObject({ plan: 'basic', saveEnabled: false });
    });

    it('records the last launch, and session and export reports once per client id', async () => {
      const user = await newUser(server());
      const { deviceToken } = (await activate(server(), user.token, 'pc-rep')).json();
      expect((await heartbeat(server(), deviceToken, { launched: true })).statusCode).toBe(200);
      const row = await server().db.kysely.selectFrom('users').select('last_launched_at').where('id', '=', user.id).executeTakeFirstOrThrow();
      expect(new Date(row.last_launched_at as string).toISOString()).toBe(server().clock.now().toISOString());

      const session = { id: randomUUID(), startedAt: '2026-11-22T08:00:00.000Z', endedAt: '2026-11-22T09:30:00.000Z', lengthSeconds: 5400, suspicious: false };
      expect((await call(server(), 'POST', '/api/desktop/sessions', deviceToken, { payload: session })).json()).toEqual({ recorded: true });
      expect((await call(server(), 'POST', '/api/desktop/sessions', deviceToken, { payload: session })).json()).toEqual({ recorded: false });
      const backwards = await call(server(), 'POST', '/api/desktop/sessions', deviceToken, { payload: { ...session, id: randomUUID(), endedAt: '2026-11-22T07:00:00.000Z' } });
      expect(backwards.statusCode).toBe(400);
      expect(backwards.json().messageKey).toBe('VALIDATION_FAILED');
      const exported = { id: randomUUID(), format: 'stl', exportedAt: '2026-11-22T09:00:00.000Z' };
      expect((await call(server(), 'POST', '/api/desktop/exports', deviceToken, { payload: exported })).json()).toEqual({ recorded: true });
      expect((await call(server(), 'POST', '/api/desktop/exports', deviceToken, { payload: exported })).json()).toEqual({ recorded: false });
      expect((await call(server(), 'POST', '/api/desktop/exports', deviceToken, { payload: { ...exported, id: randomUUID(), format: 'exe' } })).statusCode).toBe(400);
      const counts = await server().db.kysely.selectFrom('analytics_sessions').select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', user.id).executeTakeFirstOrThrow();
      expect(Number(counts.n)).toBe(1);
    });

    it('a coupon grants once per user: redeemed twice or by ten concurrent requests', async () => {
      const code = await coupon(server(), { grant: 'licence', release: '2025' });
      const user = await newUser(server());
      const answers = await Promise.all(Array.from({ length: 10 }, () => redeem(server(), user.token, code.toLowerCase())));
      expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
      expect(answers.filter((answer) => answer.statusCode === 409).map((answer) => answer.json().messageKey)).toEqual(Array(9).fill('COUPON_ALREADY_ACTIVATED'));
      const again = await redeem(server(), user.token, code, 'de');
      expect(again.json()).toEqual({ messageKey: 'COUPON_ALREADY_ACTIVATED', message: 'Du hast diesen Gutschein bereits eingelöst.' });
      const licences = (await call(server(), 'GET', '/api/perpetual/license', user.token)).json();
      expect(licences).toEqual([expect.objectContaining({ release: '2025', source: 'coupon' })]);
      // The release is owned now: not offered for sale.
      const checkout = await call(server(), 'POST', '/api/paddle/checkout', user.token, { payload: { priceId: PRICE_IDS.perpetual2025 } });
      expect(checkout.json().messageKey).toBe('PRODUCT_ALREADY_OWNED');
    });

    it('a usage limit holds under concurrent redemptions by different users', async () => {
      const code = await coupon(server(), { grant: 'access', days: 30, usageLimit: 3 });
      const users = await Promise.all(Array.from({ length: 10 }, () => newUser(server())));
      const answers = await Promise.all(users.map((user) => redeem(server(), user.token, code)));
      expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(3);
      expect(new Set(answers.filter((answer) => answer.statusCode !== 200).map((answer) => answer.json().messageKey))).toEqual(new Set(['COUPON_USED_UP']));
      const listed = (await call(server(), 'GET', '/api/coupons', await adminToken(server()))).json() as { code: string; redeemed: number }[];
      expect(listed.find((entry) => entry.code === code)?.redeemed).toBe(3);
    });

    it('an expired or unknown coupon is refused; access coupons add days after any access still running', async () => {
      const expired = await coupon(server(), { grant: 'access', days: 7, expiresAt: new Date(server().clock.now().getTime() - 1000).toISOString() });
      const user = await newUser(server());
      const late = await redeem(server(), user.token, expired, 'de');
      expect(late.statusCode).toBe(410);
      expect(late.json()).toEqual({ messageKey: 'COUPON_EXPIRED', message: 'Dieser Gutschein ist abgelaufen.' });
      const unknown = await redeem(server(), user.token, 'NO-SUCH-CODE');
      expect(unknown.statusCode).toBe(422);
      expect(unknown.json()).toEqual({ messageKey: 'COUPON_INVALID', message: 'This coupon code is not valid.' });

      const month = await redeem(server(), user.token, await coupon(server(), { grant: 'access', days: 30 }));
      const firstEnd = new Date(server().clock.now().getTime() + 30 * DAY).toISOString();
      expect(month.json()).toEqual({ grant: { kind: 'access', days: 30, accessEndsAt: firstEnd } });
      const more = await redeem(server(), user.token, await coupon(server(), { grant: 'access', days: 10 }));
      expect(more.json().grant.accessEndsAt).toBe(new Date(server().clock.now().getTime() + 40 * DAY).toISOString());
      const { deviceToken } = (await activate(server(), user.token, 'pc-acc')).json();
      expect((await heartbeat(server(), deviceToken)).json().entitlement).toMatchObject({ plan: 'access', exportEnabled: true, accessEndsAt: firstEnd });
    });

    it('a coupon entered at registration is checked first and redeemed with the new account', async () => {
      const email = `reg-${randomUUID().slice(0, 8)}@example.com`;
      const register = (couponCode: string) =>
        call(server(), 'POST', '/api/users?generateVerificationCode=true', undefined, {
          payload: {
            email,
            password: 'correct horse 42',
            firstName: 'Ada',
            lastName: 'Lovelace',
            newsletter: false,
            couponCode,
            privacyAccepted: true,
          },
        });
      const bad = await register('NOT-A-COUPON');
      expect(bad.statusCode, bad.body).toBe(422);
      expect(bad.json().messageKey).toBe('COUPON_INVALID');
      const code = await coupon(server(), { grant: 'licence', release: '2024' });
      const good = await register(code);
      expect(good.statusCode, good.body).toBe(201);
      const user = await server().db.kysely.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
      const licence = await server().db.kysely.selectFrom('licences').select(['release', 'source']).where('user_id', '=', user.id).execute();
      expect(licence).toEqual([{ release: '2024', source: 'coupon' }]);
    });

    it('only admins create coupons; a code exists once', async () => {
      const user = await newUser(server());
      expect((await call(server(), 'POST', '/api/coupons', user.token, { payload: { code: 'MINE-1234', grant: 'access', days: 5 } })).statusCode).toBe(403);
      expect((await call(server(), 'GET', '/api/coupons', user.token)).statusCode).toBe(403);
      const admin = await adminToken(server());
      expect((await call(server(), 'POST', '/api/coupons', admin, { payload: { code: 'TWICE-1234', grant: 'access', days: 5 } })).statusCode).toBe(200);
      const twice = await call(server(), 'POST', '/api/coupons', admin, { payload: { code: 'twice-1234', grant: 'access', days: 5 } });
      expect(twice.statusCode).toBe(409);
      expect(twice.json().messageKey).toBe('COUPON_EXISTS');
      expect((await call(server(), 'POST', '/api/coupons', admin, { payload: { code: 'NORELEASE', grant: 'licence' } })).statusCode).toBe(400);
    });
  },
  () => ({ billing: paddle.billing }),
);

describeEachDatabase('Shapelab Lite keys, releases and downloads', (server) => {
  it('admins import keys from CSV, list and search the unused ones, and export them; a key is claimed once', async () => {
    const admin = await adminToken(server());
    const csv = ['key,channel', 'LITE-AAAA-0001,steam', 'lite-aaaa-0002,viveport', 'LITE-BBBB-0003,', 'LITE-AAAA-0001,steam', 'bad key,steam', ''].join('\n');
    const imported = await call(server(), 'POST', '/api/lite-keys/import', admin, { payload: { csv } });
    expect(imported.json()).toEqual({ imported: 3, duplicates: 1, invalid: 1 });
    expect((await call(server(), 'POST', '/api/lite-keys/import', admin, { payload: { csv: 'LITE-AAAA-0001\nLITE-CCCC-0004' } })).json()).toEqual({ imported: 1, duplicates: 1, invalid: 0 });

    const list = await call(server(), 'GET', '/api/lite-keys?search=lite-aaaa&skip=0&take=10', admin);
    expect(list.json()).toEqual({ total: 2, data: expect.arrayContaining([expect.objectContaining({ key: 'LITE-AAAA-0002', channel: 'viveport' })]) });
    expect((await call(server(), 'GET', '/api/lite-keys?skip=0&take=2', admin)).json()).toMatchObject({ total: 4, data: [{}, {}] });

    const user = await newUser(server());
    expect((await call(server(), 'GET', '/api/lite-keys', user.token)).statusCode).toBe(403);
    expect((await call(server(), 'POST', '/api/lite-keys/import', user.token, { payload: { csv } })).statusCode).toBe(403);
    const { deviceToken } = (await activate(server(), user.token, 'lite-pc')).json();
    const claimed = await call(server(), 'POST', '/api/desktop/lite-keys/claim', deviceToken, { payload: { code: 'lite-aaaa-0002' } });
    expect(claimed.json()).toEqual({ grant: { kind: 'lite', channel: 'viveport' } });
    expect((await heartbeat(server(), deviceToken)).json().entitlement).toMatchObject({ plan: 'lite', saveEnabled: true });
    const other = await newUser(server());
    const twice = await call(server(), 'POST', '/api/lite-keys/redeem', other.token, { payload: { code: 'LITE-AAAA-0002' } });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().messageKey).toBe('LITE_KEY_CLAIMED');
    expect((await call(server(), 'POST', '/api/lite-keys/redeem', other.token, { payload: { code: 'LITE-ZZZZ-9999' } })).json().messageKey).toBe('LITE_KEY_INVALID');

    const exported = await call(server(), 'GET', '/api/lite-keys/export', admin);
    expect(exported.headers['content-type']).toMatch(/^text\/csv/);
    // The claimed key is no longer listed; one import time, so by key.
    expect(exported.body.trim().split('\n').map((line) => line.split(',').slice(0, 2).join(','))).toEqual([
      'key,channel',
      'LITE-AAAA-0001,steam',
      'LITE-BBBB-0003,steam',
      'LITE-CCCC-0004,steam',
    ]);
  });

  it('offers the newest build per platform; admins add releases; a download is recorded once as the user’s first', async () => {
    const latest = await call(server(), 'GET', '/api/releases/latest');
    expect(latest.json().map((r: { platform: string; version: string }) => `${r.platform} ${r.version}`)).toEqual(['windows 2025.1.0', 'macos 2025.1.0', 'linux 2025.1.0']);
    const admin = await adminToken(server());
    const added = await call(server(), 'POST', '/api/releases', admin, {
      payload: { release: '2025', version: '2025.2.0', platform: 'macos', url: 'https://downloads.shapelab.app/2025.2.0/Shapelab.dmg', publishedAt: '2026-11-01T00:00:00.000Z' },
    });
    expect(added.statusCode, added.body).toBe(200);
    // Not yet published builds are not offered.
    await call(server(), 'POST', '/api/releases', admin, {
      payload: { release: '2026', version: '2026.1.0', platform: 'macos', url: 'https://downloads.shapelab.app/2026.1.0/Shapelab.dmg', publishedAt: '2027-03-01T00:00:00.000Z' },
    });
    const mac = (await call(server(), 'GET', '/api/releases/latest')).json().find((r: { platform: string }) => r.platform === 'macos');
    expect(mac).toMatchObject({ version: '2025.2.0', url: 'https://downloads.shapelab.app/2025.2.0/Shapelab.dmg' });

    const user = await newUser(server());
    expect((await call(server(), 'POST', '/api/users/downloadedShapelab', user.token, { payload: {} })).json()).toEqual({ recorded: true });
    const first = await server().db.kysely.selectFrom('users').select('downloaded_at').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(first.downloaded_at).not.toBeNull();
    server().clock.advance(3600);
    await call(server(), 'POST', '/api/users/downloadedShapelab', user.token, { payload: { platform: 'macos', releaseId: mac.id } });
    const after = await server().db.kysely.selectFrom('users').select('downloaded_at').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(after.downloaded_at).toEqual(first.downloaded_at);
    expect((await call(server(), 'POST', '/api/users/downloadedShapelab', undefined, { payload: {} })).statusCode).toBe(401);
  });
});
