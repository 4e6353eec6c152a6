import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { USER_SORT_FIELDS, type UserPlan } from '../../contract/users.js';
import { exportBatches } from '../../server/modules/admin-users/index.js';
import { signIn, someClientAddress, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * Issue 21 item 2, the users grid for support work: the filters (verified, admin, newsletter, sign-in
 * method, plan) alone and combined with the search and each sort, the CSV export of the same list, the
 * bulk actions and their guard rails, and who may call them.
 */
function request(server: TestServer, method: 'GET' | 'POST', url: string, token?: string, payload?: object, language = 'en') {
  return server.app.inject({
    method,
    url,
    headers: { 'accept-language': language, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    remoteAddress: someClientAddress(),
    ...(payload ? { payload } : {}),
  });
}

async function admin(server: TestServer) {
  const user = await server.createUser({ roles: ['user', 'admin'] });
  return { ...user, token: (await signIn(server, user.email, user.password)).access_token };
}

interface Person {
  id: string;
  email: string;
  verified: boolean;
  admin: boolean;
  newsletter: boolean;
  password: boolean;
  google: boolean;
  facebook: boolean;
  plan: UserPlan;
}
type Row = Record<string, unknown> & { id: string };

/** The CSV's rows as objects keyed by its header. */
function csvRows(body: string): Record<string, string>[] {
  return parse(body, { columns: true, bom: true }) as Record<string, string>[];
}

/**
 * Sixteen users under one tag, each with a different mix of the filtered properties; plans come from real
 * subscription and licence rows (the triggers of migration 0017 keep `users.plan`).
 */
async function population(server: TestServer, tag: string): Promise<Person[]> {
  const db = server.db.kysely;
  const people: Person[] = [];
  const plans: UserPlan[] = ['free', 'trial', 'subscriber', 'licence-owner'];
  for (let index = 0; index < 16; index++) {
    const person: Person = {
      id: '',
      email: `tools-${tag}-${String(index).padStart(2, '0')}@example.com`,
      verified: index % 2 === 0,
      admin: index % 5 === 0,
      newsletter: index % 3 === 0,
      password: index % 4 !== 3,
      google: index % 4 === 3 || index % 6 === 0,
      facebook: index % 7 === 1,
      plan: plans[index % 4] as UserPlan,
    };
    const user = await server.createUser({ email: person.email, verified: person.verified, roles: person.admin ? ['user', 'admin'] : ['user'] });
    person.id = user.id;
    const now = new Date().toISOString();
    await db
      .updateTable('users')
      .set({ newsletter: person.newsletter ? 1 : 0, first_name: index % 5 === 4 ? null : `First${index % 3}`, ...(person.password ? {} : { password_hash: null }) })
      .where('id', '=', user.id)
      .execute();
    if (person.google) await db.insertInto('social_accounts').values({ provider: 'google', subject: `g-${tag}-${index}`, user_id: user.id, email: null, created_at: now }).execute();
    if (person.facebook) await db.insertInto('social_accounts').values({ provider: 'facebook', subject: `f-${tag}-${index}`, user_id: user.id, email: null, created_at: now }).execute();
    const subscription = (status: string, extra: { duplicate_of?: string } = {}) =>
      db
        .insertInto('subscriptions')
        .values({ id: `sub_${tag}_${index}_${status}`, customer_id: `ctm_${tag}_${index}`, user_id: user.id, status, price_id: 'pri_x', billing_interval: 'month', currency_code: 'USD', created_at: now, last_event_at: now, ...extra })
        .execute();
    // Rows that must not count: an ended subscription, a duplicate being undone, a returned licence.
    if (index % 8 === 0) await subscription('canceled');
    if (index % 8 === 1) await subscription('active', { duplicate_of: 'sub_other' });
    if (person.plan === 'trial') await subscription('trialing');
    if (person.plan === 'subscriber') await subscription(index % 8 === 2 ? 'active' : 'past_due');
    if (person.plan === 'licence-owner') {
      await db.insertInto('licences').values({ id: `lic_${tag}_${index}`, user_id: user.id, source: 'purchase', edition: 'full', channel: 'paddle', release: '2025', granted_at: now }).execute();
    }
    if (person.plan === 'free' && index % 8 === 4) {
      await db.insertInto('licences').values({ id: `lic_${tag}_${index}_returned`, user_id: user.id, source: 'purchase', edition: 'full', channel: 'paddle', release: '2025', granted_at: now, revoked_at: now }).execute();
    }
    people.push(person);
  }
  return people;
}

/** Each filter and a few combinations, with what they mean for a person. */
const FILTERS: [string, (person: Person) => boolean][] = [
  ['verified=true', (p) => p.verified],
  ['verified=false', (p) => !p.verified],
  ['admin=true', (p) => p.admin],
  ['admin=false', (p) => !p.admin],
  ['newsletter=true', (p) => p.newsletter],
  ['newsletter=false', (p) => !p.newsletter],
  ['signIn=password', (p) => p.password],
  ['signIn=google', (p) => p.google],
  ['signIn=facebook', (p) => p.facebook],
  ['plan=free', (p) => p.plan === 'free'],
  ['plan=trial', (p) => p.plan === 'trial'],
  ['plan=subscriber', (p) => p.plan === 'subscriber'],
  ['plan=licence-owner', (p) => p.plan === 'licence-owner'],
  ['verified=true&newsletter=false', (p) => p.verified && !p.newsletter],
  ['admin=false&signIn=google&plan=free', (p) => !p.admin && p.google && p.plan === 'free'],
  ['verified=false&admin=true&newsletter=true&signIn=password&plan=free', (p) => !p.verified && p.admin && p.newsletter && p.password && p.plan === 'free'],
  ['verified=true&plan=subscriber', (p) => p.verified && p.plan === 'subscriber'],
];

describeEachDatabase('admin users grid tools', (server) => {
  it('each filter and their combinations select the same users in the grid and in the CSV, with the search and every sort', async () => {
    const { token } = await admin(server());
    const tag = randomUUID().slice(0, 8);
    const people = await population(server(), tag);
    const search = `tools-${tag}`;
    for (const [filter, selects] of FILTERS) {
      const expected = people.filter(selects).map((p) => p.id).sort();
      const list = await request(server(), 'GET', `/api/users?search=${search}&${filter}&skip=0&take=100`, token);
      expect(list.statusCode, `${filter}: ${list.body}`).toBe(200);
      const body = list.json() as { data: Row[]; total: number };
      expect(body.data.map((row) => row.id).sort(), filter).toEqual(expected);
      expect(body.total, filter).toBe(expected.length);
      const csv = await request(server(), 'GET', `/api/users/export?search=${search}&${filter}`, token);
      expect(csv.statusCode, filter).toBe(200);
      // The same rows in the same order as the grid (newest first; all created in the same millisecond at most, then by id).
      expect(csvRows(csv.body).map((row) => row.id), filter).toEqual(body.data.map((row) => row.id));
    }
    // The row and the CSV carry what the filters read.
    const list = (await request(server(), 'GET', `/api/users?search=${search}&skip=0&take=100`, token)).json() as { data: Row[] };
    const csv = csvRows((await request(server(), 'GET', `/api/users/export?search=${search}`, token)).body);
    for (const person of people) {
      const row = list.data.find((r) => r.id === person.id);
      expect(row?.plan, person.email).toBe(person.plan);
      expect(row?.isAdmin).toBe(person.admin);
      const line = csv.find((r) => r.id === person.id);
      expect(line, person.email).toMatchObject({
        email: person.email,
        emailVerified: String(person.verified),
        passwordSignIn: String(person.password),
        googleConnected: String(person.google),
        facebookConnected: String(person.facebook),
        newsletter: String(person.newsletter),
        isAdmin: String(person.admin),
        plan: person.plan,
      });
    }
    // Every sort, both ways, with a filter: the grid's pages and the export's keyset batches (two rows
    // a batch, so NULLs and values are each crossed in several steps) list the same users in the same order.
    for (const field of USER_SORT_FIELDS) {
      for (const direction of ['asc', 'desc'] as const) {
        const query = `search=${search}&verified=true&sortField=${field}&sortDirection=${direction}`;
        const pages: string[] = [];
        for (let skip = 0; skip < 8; skip += 3) pages.push(...((await request(server(), 'GET', `/api/users?${query}&skip=${skip}&take=3`, token)).json().data as Row[]).map((r) => r.id));
        const exported = csvRows((await request(server(), 'GET', `/api/users/export?${query}`, token)).body).map((row) => row.id);
        expect(exported, query).toEqual(pages);
        const batches: string[] = [];
        for await (const rows of exportBatches({ db: server().db.kysely, dialect: server().db.dialect }, { search, verified: 'true', sortField: field, sortDirection: direction }, 2)) batches.push(...rows.map((row) => row.id));
        expect(batches, `batches ${query}`).toEqual(pages);
        const unfiltered = [];
        for await (const rows of exportBatches({ db: server().db.kysely, dialect: server().db.dialect }, { search, sortField: field, sortDirection: direction }, 3)) unfiltered.push(...rows.map((row) => row.id));
        expect(unfiltered.length, `every user ${query}`).toBe(people.length);
      }
    }
  });

  it('counts every user a filter selects, and follows changes to the subscription, licence, roles and profile', async () => {
    const { token } = await admin(server());
    const db = server().db.kysely;
    const tag = randomUUID().slice(0, 8);
    await population(server(), tag);
    // Without a search the totals are everyone's: counted here straight from the source columns.
    const count = async (where: ReturnType<typeof sql<boolean>>) => Number((await sql<{ n: number }>`select count(*) as n from users where ${where}`.execute(db)).rows[0]?.n);
    const cases: [string, ReturnType<typeof sql<boolean>>][] = [
      ['verified=true&newsletter=false', sql<boolean>`email_verified_at is not null and newsletter = 0`],
      ['signIn=password&admin=false', sql<boolean>`password_hash is not null and not exists (select 1 from user_roles r where r.user_id = users.id and r.role = 'admin')`],
      ['signIn=facebook', sql<boolean>`exists (select 1 from social_accounts s where s.user_id = users.id and s.provider = 'facebook')`],
      ['plan=trial', sql<boolean>`exists (select 1 from subscriptions s where s.user_id = users.id and s.status = 'trialing' and s.duplicate_of is null)`],
    ];
    for (const [filter, where] of cases) {
      const all = await request(server(), 'GET', `/api/users?${filter}&skip=0&take=5`, token);
      expect(all.json().total, filter).toBe(await count(where));
      const csv = csvRows((await request(server(), 'GET', `/api/users/export?${filter}`, token)).body);
      expect(csv.length, filter).toBe(await count(where));
    }

    const user = await server().createUser({ email: `moves-${tag}@example.com` });
    const plan = async () => ((await request(server(), 'GET', `/api/users?search=moves-${tag}`, token)).json().data[0] as Row).plan;
    const now = new Date().toISOString();
    expect(await plan()).toBe('free');
    await db.insertInto('subscriptions').values({ id: `sub_moves_${tag}`, customer_id: 'ctm', user_id: user.id, status: 'trialing', price_id: 'p', billing_interval: 'year', currency_code: 'USD', created_at: now, last_event_at: now }).execute();
    expect(await plan()).toBe('trial');
    await db.updateTable('subscriptions').set({ status: 'active' }).where('id', '=', `sub_moves_${tag}`).execute();
    expect(await plan()).toBe('subscriber');
    await db.insertInto('licences').values({ id: `lic_moves_${tag}`, user_id: user.id, source: 'coupon', edition: 'full', channel: 'coupon', release: '2025', granted_at: now }).execute();
    await db.updateTable('subscriptions').set({ status: 'canceled' }).where('id', '=', `sub_moves_${tag}`).execute();
    expect(await plan()).toBe('licence-owner');
    await db.updateTable('licences').set({ revoked_at: now }).where('id', '=', `lic_moves_${tag}`).execute();
    expect(await plan()).toBe('free');
    const filtered = async (filter: string) => (await request(server(), 'GET', `/api/users?search=moves-${tag}&${filter}`, token)).json().total;
    expect(await filtered('newsletter=true&admin=true')).toBe(0);
    await db.updateTable('users').set({ newsletter: 1 }).where('id', '=', user.id).execute();
    await request(server(), 'POST', '/api/users/bulk', token, { action: 'grant-admin', ids: [user.id] });
    expect(await filtered('newsletter=true&admin=true')).toBe(1);
    expect(await filtered('signIn=password')).toBe(1);
    await db.updateTable('users').set({ password_hash: null }).where('id', '=', user.id).execute();
    expect(await filtered('signIn=password')).toBe(0);
  });

  it('exports a dated, streamed CSV with a header row, quoted where needed and safe from formulas', async () => {
    const { token } = await admin(server());
    const tag = randomUUID().slice(0, 8);
    const user = await server().createUser({ email: `csv-${tag}@example.com` });
    await server().db.kysely.updateTable('users').set({ first_name: '=HYPERLINK("http://evil.example","x")', last_name: '+cmd, "quoted"' }).where('id', '=', user.id).execute();
    const plusUser = await server().createUser({ email: `csv-${tag}+@example.com` });
    await server().db.kysely.updateTable('users').set({ first_name: '@SUM(A1)', last_name: '-2+3' }).where('id', '=', plusUser.id).execute();
    const response = await request(server(), 'GET', `/api/users/export?search=csv-${tag}&sortField=email&sortDirection=asc`, token);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="shapelab-users-${server().clock.now().toISOString().slice(0, 10)}.csv"`);
    const lines = response.body.split('\r\n');
    expect(lines[0]).toBe('id,email,firstName,lastName,emailVerified,passwordSignIn,googleConnected,facebookConnected,newsletter,isAdmin,plan,createdAt,downloadedAt,lastLaunchedAt');
    const rows = csvRows(response.body);
    expect(rows.map((row) => row.email)).toEqual([`csv-${tag}+@example.com`, `csv-${tag}@example.com`]);
    expect(rows[0]).toMatchObject({ firstName: "'@SUM(A1)", lastName: "'-2+3" });
    expect(rows[1]).toMatchObject({ firstName: `'=HYPERLINK("http://evil.example","x")`, lastName: `'+cmd, "quoted"` });
    // Nobody matches: the header alone.
    expect((await request(server(), 'GET', `/api/users/export?search=nobody-${tag}`, token)).body).toBe(`${lines[0]}\r\n`);
  });

  it('refuses unknown filter values with USER_FILTER_INVALID in the caller’s language, and other bad queries as before', async () => {
    const { token } = await admin(server());
    for (const path of ['/api/users', '/api/users/export']) {
      for (const filter of ['plan=gold', 'verified=yes', 'admin=1', 'newsletter=', 'signIn=github', 'plan=free&verified=maybe']) {
        const response = await request(server(), 'GET', `${path}?${filter}`, token);
        expect(response.statusCode, `${path}?${filter}`).toBe(400);
        expect(response.json().messageKey).toBe('USER_FILTER_INVALID');
      }
      const german = await request(server(), 'GET', `${path}?plan=gold`, token, undefined, 'de');
      expect(german.json().message).toMatch(/^Unbekannter Filterwert/);
      expect((await request(server(), 'GET', `${path}?sortField=password`, token)).json().messageKey).toBe('VALIDATION_FAILED');
    }
    expect((await request(server(), 'GET', '/api/users/export?skip=0&take=5', token)).statusCode).toBe(200);
    const tooMany = Array.from({ length: 501 }, () => randomUUID());
    for (const body of [{ action: 'delete', ids: tooMany }, { action: 'promote', ids: [randomUUID()] }, { action: 'delete', ids: [] }, { action: 'delete', ids: ['not-an-id'] }]) {
      const response = await request(server(), 'POST', '/api/users/bulk', token, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().messageKey).toBe('VALIDATION_FAILED');
    }
  });

  it('a plain user gets 403 on every new route, and nothing changes', async () => {
    const user = await server().createUser();
    const other = await server().createUser();
    const { access_token } = await signIn(server(), user.email, user.password);
    const calls = [
      request(server(), 'GET', '/api/users/export', access_token),
      request(server(), 'GET', '/api/users/export?verified=true', access_token),
      request(server(), 'GET', '/api/users?plan=free&skip=0&take=5', access_token),
      request(server(), 'POST', '/api/users/bulk', access_token, { action: 'grant-admin', ids: [user.id] }),
      request(server(), 'POST', '/api/users/bulk', access_token, { action: 'delete', ids: [other.id] }),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json().messageKey).toBe('FORBIDDEN');
    }
    expect((await request(server(), 'GET', '/api/users/export')).statusCode).toBe(401);
    const roles = await server().db.kysely.selectFrom('user_roles').select('role').where('user_id', '=', user.id).execute();
    expect(roles.map((row) => row.role)).toEqual(['user']);
    expect(await server().db.kysely.selectFrom('users').select('id').where('id', '=', other.id).executeTakeFirst()).toBeDefined();
  });

  it('bulk role change and deletion: each change through the single-user rules, logged; the acting admin is skipped', async () => {
    const boss = await admin(server());
    const db = server().db.kysely;
    const users = [await server().createUser(), await server().createUser(), await server().createUser()];
    const ids = users.map((user) => user.id);
    const granted = await request(server(), 'POST', '/api/users/bulk', boss.token, { action: 'grant-admin', ids: [...ids, boss.id] });
    expect(granted.statusCode, granted.body).toBe(200);
    // Granting the admin role to yourself changes nothing: done, not refused.
    expect(granted.json()).toEqual({ done: [...ids, boss.id], skipped: [] });
    for (const id of ids) expect((await db.selectFrom('user_roles').select('role').where('user_id', '=', id).orderBy('role').execute()).map((r) => r.role)).toEqual(['admin', 'user']);

    const gone = randomUUID();
    const revoked = await request(server(), 'POST', '/api/users/bulk', boss.token, { action: 'revoke-admin', ids: [ids[0], boss.id, gone, ids[1], ids[2]] });
    expect(revoked.json()).toEqual({
      done: [ids[0], ids[1], ids[2]],
      skipped: [
        { id: boss.id, messageKey: 'CANNOT_MODIFY_SELF' },
        { id: gone, messageKey: 'USER_NOT_FOUND' },
      ],
    });
    expect((await db.selectFrom('user_roles').select('role').where('user_id', '=', boss.id).where('role', '=', 'admin').execute()).length).toBe(1);
    const changes = await db.selectFrom('activity_log').select(['user_id', 'actor_id', 'details']).where('kind', '=', 'roles.changed').where('user_id', 'in', ids).execute();
    // Two changes each (granted, then revoked), each by the acting admin; none for the acting admin's no-op.
    expect(changes).toHaveLength(6);
    expect(new Set(changes.map((change) => change.actor_id))).toEqual(new Set([boss.id]));
    expect((await db.selectFrom('activity_log').select('id').where('kind', '=', 'roles.changed').where('user_id', '=', boss.id).execute()).length).toBe(0);

    const deleted = await request(server(), 'POST', '/api/users/bulk', boss.token, { action: 'delete', ids: [ids[0], ids[1], boss.id] });
    expect(deleted.json()).toEqual({ done: [ids[0], ids[1]], skipped: [{ id: boss.id, messageKey: 'CANNOT_MODIFY_SELF' }] });
    expect((await db.selectFrom('users').select('id').where('id', 'in', ids).execute()).map((row) => row.id)).toEqual([ids[2]]);
    const deletions = await db.selectFrom('activity_log').select(['user_id', 'actor_id']).where('kind', '=', 'user.deleted').where('user_id', 'in', ids).execute();
    expect(deletions.map((entry) => entry.user_id).sort()).toEqual([ids[0], ids[1]].sort());
    expect(deletions.every((entry) => entry.actor_id === boss.id)).toBe(true);
    // The audit trail the grid's history shows lists the bulk deletion like a single one.
    const audit = await request(server(), 'GET', `/api/users/${ids[0]}/audit`, boss.token);
    expect(audit.json().map((entry: { action: string }) => entry.action)).toContain('user.deleted');
  });

  it('bulk actions never leave the portal without an admin, even when two admins demote each other at once', async () => {
    const db = server().db.kysely;
    const before = await db.selectFrom('user_roles').select('user_id').where('role', '=', 'admin').execute();
    for (const row of before) await db.deleteFrom('user_roles').where('user_id', '=', row.user_id).where('role', '=', 'admin').execute();
    try {
      const first = await admin(server());
      const second = await admin(server());
      for (const action of ['revoke-admin', 'delete'] as const) {
        const answers = await Promise.all([
          request(server(), 'POST', '/api/users/bulk', first.token, { action, ids: [second.id] }),
          request(server(), 'POST', '/api/users/bulk', second.token, { action, ids: [first.id] }),
        ]);
        const admins = await db.selectFrom('user_roles').select('user_id').where('role', '=', 'admin').execute();
        expect(admins, action).toHaveLength(1);
        // One wins; the other is refused: skipped as the last admin, or no longer an admin (403) or a user (401) at all.
        const outcomes = answers.map((answer) => (answer.statusCode === 403 || answer.statusCode === 401 ? 'forbidden' : JSON.stringify(answer.json())));
        const winner = admins[0]?.user_id === first.id ? 0 : 1;
        const loser = 1 - winner;
        expect(outcomes[winner]).toBe(JSON.stringify({ done: [winner === 0 ? second.id : first.id], skipped: [] }));
        expect(['forbidden', JSON.stringify({ done: [], skipped: [{ id: winner === 0 ? first.id : second.id, messageKey: 'LAST_ADMIN' }] })]).toContain(outcomes[loser]);
        // Back to two admins for the deletion round.
        if (action === 'revoke-admin') await db.insertInto('user_roles').values({ user_id: winner === 0 ? second.id : first.id, role: 'admin' }).execute();
      }
    } finally {
      for (const row of before) {
        const exists = await db.selectFrom('users').select('id').where('id', '=', row.user_id).executeTakeFirst();
        if (exists) await db.insertInto('user_roles').values({ user_id: row.user_id, role: 'admin' }).onConflict((oc) => oc.doNothing()).execute();
      }
    }
  });
});
