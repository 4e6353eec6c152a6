import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { expect, it } from 'vitest';
import type { Database } from '../../server/db/schema.js';
import { userSegmentCounts } from '../../server/db/migrations/0018-user-segment-counts.js';
import { signIn, someClientAddress, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * Issue 21: the admin grid's filtered totals are sums over `user_segment_counts` (migration 0018), so
 * that table must hold exactly the users of each segment after every way a user enters, moves between
 * or leaves segments: compared here with a GROUP BY over users after each step.
 */
function call(server: TestServer, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token?: string, payload?: object) {
  return server.app.inject({
    method,
    url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    remoteAddress: someClientAddress(),
    ...(payload ? { payload } : {}),
  });
}

/** The kept counts and the users counted now, per segment (segments without users left out of both). */
async function countsAndUsers(db: Kysely<Database>) {
  const kept = await db.selectFrom('user_segment_counts').select(['segment', 'users']).execute();
  const grouped = await sql<{ segment: number; n: number | string }>`select segment, count(*) as n from users group by segment`.execute(db);
  const byNumber = (rows: { segment: number; n: number | string }[]) =>
    Object.fromEntries(rows.filter((row) => Number(row.n) !== 0).map((row) => [String(row.segment), Number(row.n)]));
  return {
    kept: byNumber(kept.map((row) => ({ segment: row.segment, n: row.users }))),
    counted: byNumber(grouped.rows),
    negative: kept.filter((row) => Number(row.users) < 0),
  };
}

async function expectCountsExact(db: Kysely<Database>, step: string) {
  const { kept, counted, negative } = await countsAndUsers(db);
  expect(kept, step).toEqual(counted);
  expect(negative, step).toEqual([]);
}

async function admin(server: TestServer) {
  const user = await server.createUser({ roles: ['user', 'admin'] });
  return { ...user, token: (await signIn(server, user.email, user.password)).access_token };
}

function register(server: TestServer, email: string) {
  return call(server, 'POST', '/api/users?generateVerificationCode=true', undefined, { email, password: 'sculpt4ever', firstName: 'Ada', lastName: 'Lovelace', privacyAccepted: true });
}

async function verify(server: TestServer, email: string) {
  const mails = (await call(server, 'GET', `/api/dev/outbox?to=${encodeURIComponent(email)}`)).json<{ text: string }[]>();
  const code = /\b(\d{6})\b/.exec(mails[0]?.text ?? '')?.[1] ?? '';
  const response = await call(server, 'POST', '/api/users/validate/code', undefined, { email, code });
  expect(response.statusCode, response.body).toBe(200);
}

describeEachDatabase('admin users grid: the kept counts per segment', (server) => {
  it('equal count(*) per segment after registration, verification, roles, newsletter, social links, plans and deletions', async () => {
    const db = server().db.kysely;
    const boss = await admin(server());
    await expectCountsExact(db, 'an admin created');
    const tag = randomUUID().slice(0, 8);
    const email = `counts-${tag}@example.com`;
    const registered = await register(server(), email);
    expect(registered.statusCode, registered.body).toBe(201);
    const id = (registered.json() as { id: string }).id;
    await expectCountsExact(db, 'registered');
    await verify(server(), email);
    await expectCountsExact(db, 'verified');
    const { access_token: token } = await signIn(server(), email, 'sculpt4ever');
    const newsletter = await call(server(), 'PATCH', '/api/users/me', token, { newsletter: true });
    expect(newsletter.statusCode, newsletter.body).toBe(200);
    await expectCountsExact(db, 'newsletter');
    const promoted = await call(server(), 'PATCH', `/api/users/${id}`, boss.token, { roles: ['user', 'admin'] });
    expect(promoted.statusCode, promoted.body).toBe(200);
    await expectCountsExact(db, 'made admin');
    await call(server(), 'PATCH', `/api/users/${id}`, boss.token, { roles: ['user'] });
    await expectCountsExact(db, 'admin role removed');
    // Social links and plans are kept by 0009's and 0017's triggers, which fire 0018's in turn.
    const now = new Date().toISOString();
    await db.insertInto('social_accounts').values({ provider: 'google', subject: `g-${tag}`, user_id: id, email: null, created_at: now }).execute();
    await db.insertInto('social_accounts').values({ provider: 'facebook', subject: `f-${tag}`, user_id: id, email: null, created_at: now }).execute();
    await expectCountsExact(db, 'social links');
    await db.deleteFrom('social_accounts').where('subject', '=', `g-${tag}`).execute();
    await expectCountsExact(db, 'google unlinked');
    const subscription = { id: `sub_${tag}`, customer_id: `ctm_${tag}`, user_id: id, price_id: 'pri_x', billing_interval: 'month', currency_code: 'USD', created_at: now, last_event_at: now };
    await db.insertInto('subscriptions').values({ ...subscription, status: 'trialing' }).execute();
    await expectCountsExact(db, 'trial');
    await db.updateTable('subscriptions').set({ status: 'active' }).where('id', '=', subscription.id).execute();
    await expectCountsExact(db, 'subscriber');
    await db.insertInto('licences').values({ id: `lic_${tag}`, user_id: id, source: 'coupon', edition: 'full', channel: 'coupon', release: '2025', granted_at: now }).execute();
    await db.updateTable('subscriptions').set({ status: 'canceled' }).where('id', '=', subscription.id).execute();
    await expectCountsExact(db, 'licence owner');
    await db.updateTable('users').set({ password_hash: null, email_verified_at: null }).where('id', '=', id).execute();
    await expectCountsExact(db, 'two inputs in one update');
    await db.updateTable('users').set({ last_launched_at: now }).where('id', '=', id).execute();
    await expectCountsExact(db, 'an update that leaves the segment');
    // A statement moving many users at once, in both directions.
    const others = await Promise.all(Array.from({ length: 6 }, (_, index) => server().createUser({ email: `counts-${tag}-${index}@example.com`, verified: index % 2 === 0 })));
    await db.updateTable('users').set({ newsletter: sql`1 - newsletter` }).where('email', 'like', `counts-${tag}%`).execute();
    await expectCountsExact(db, 'bulk update');
    const deleted = await call(server(), 'DELETE', `/api/users/${id}`, boss.token);
    expect(deleted.statusCode, deleted.body).toBe(200);
    await expectCountsExact(db, 'deleted by an admin (its subscription and licence detached)');
    const bulk = await call(server(), 'POST', '/api/users/bulk', boss.token, { action: 'delete', ids: others.slice(0, 3).map((user) => user.id) });
    expect(bulk.statusCode, bulk.body).toBe(200);
    await db.deleteFrom('users').where('email', 'like', `counts-${tag}-%`).execute();
    await expectCountsExact(db, 'bulk deletions');

    // The grid's totals without a search are these sums; with a search they are still counted.
    const total = async (query: string) => (await call(server(), 'GET', `/api/users?${query}&skip=0&take=5`, boss.token)).json<{ total: number }>().total;
    const everyone = Number((await db.selectFrom('users').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n);
    expect(await total('sortField=email&sortDirection=asc')).toBe(everyone);
    const verified = Number((await db.selectFrom('users').select((eb) => eb.fn.countAll<number | string>().as('n')).where('email_verified_at', 'is not', null).executeTakeFirstOrThrow()).n);
    expect(await total('verified=true')).toBe(verified);
    expect(await total('verified=true&plan=subscriber&admin=true')).toBe(0);
    expect(await total(`search=counts-${tag}&verified=true`)).toBe(0);
  });

  it('the migration fills the counts from the users already there', async () => {
    const db = server().db.kysely;
    const { up, down } = userSegmentCounts(server().db.dialect);
    if (!down) throw new Error('0018 has a down migration');
    await down(db as Kysely<unknown>);
    try {
      // Users written while the table and its triggers are gone: the migration must count them all.
      const tag = randomUUID().slice(0, 8);
      for (let index = 0; index < 8; index++) await server().createUser({ email: `fill-${tag}-${index}@example.com`, verified: index % 3 !== 0, roles: index === 5 ? ['user', 'admin'] : ['user'] });
      await db.updateTable('users').set({ newsletter: 1 }).where('email', 'like', `fill-${tag}-%`).where('email_verified_at', 'is', null).execute();
    } finally {
      await up(db as Kysely<unknown>);
    }
    await expectCountsExact(db, 'filled');
  });

  it('stays exact when users register, move and leave concurrently (PostgreSQL; SQLite writes one at a time)', async () => {
    const db = server().db.kysely;
    const tag = randomUUID().slice(0, 8);
    const emails = Array.from({ length: 20 }, (_, index) => `parallel-${tag}-${index}@example.com`);
    const responses = await Promise.all(emails.map((email) => register(server(), email)));
    expect(responses.map((response) => response.statusCode)).toEqual(emails.map(() => 201));
    await expectCountsExact(db, '20 parallel registrations');
    // A segment's first users, inserted at once in transactions that stay open a moment: the upsert must
    // create its row once and add the others (a plain insert would fail, a read-then-write lose users).
    const segment = (row: { segment: number } | undefined) => row?.segment;
    const fresh = await db.selectFrom('user_segment_counts').select('segment').where('segment', '=', 5).executeTakeFirst();
    expect(segment(fresh), 'segment 5 (verified, newsletter, no password) is new').toBeUndefined();
    const now = new Date().toISOString();
    await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        db.transaction().execute(async (trx) => {
          await trx
            .insertInto('users')
            .values({ id: randomUUID(), email: `first-${tag}-${index}@example.com`, password_hash: null, email_verified_at: now, newsletter: 1, signup_source: 'test', created_at: now, updated_at: now })
            .execute();
          if (server().kind === 'postgres') await sql`select pg_sleep(0.05)`.execute(trx);
        }),
      ),
    );
    expect(Number((await db.selectFrom('user_segment_counts').select('users').where('segment', '=', 5).executeTakeFirstOrThrow()).users)).toBe(12);
    await expectCountsExact(db, 'a new segment filled at once');
    // Moves in opposite directions and deletions at once.
    const ids = (await db.selectFrom('users').select('id').where('email', 'like', `first-${tag}-%`).execute()).map((row) => row.id);
    await Promise.all([
      ...ids.map((id, index) =>
        db
          .updateTable('users')
          .set(index % 2 === 0 ? { newsletter: 0 } : { email_verified_at: null })
          .where('id', '=', id)
          .execute(),
      ),
      ...emails.slice(0, 10).map((email) => db.deleteFrom('users').where('email', '=', email).execute()),
      ...emails.slice(10).map((email) => db.updateTable('users').set({ newsletter: 1 }).where('email', '=', email).execute()),
    ]);
    await expectCountsExact(db, 'concurrent moves and deletions');
  });
});
