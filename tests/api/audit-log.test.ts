import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { parse } from 'csv-parse/sync';
import { expect, it } from 'vitest';
import type { AuditLogEntry } from '../../contract/audit.js';
import type { Role } from '../../contract/roles.js';
import { signIn, someClientAddress, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * Issue 47, the audit log: every staff action across accounts (roles, deletions, views, resends, ended
 * sessions, bulk actions, exports, the admin area's other writes), newest first, filtered by actor, action,
 * subject and time, exported as CSV with the users export's formula escaping. It outlives the accounts it
 * names, and nothing changes it: no route, and on the database a trigger refuses UPDATE and DELETE.
 */

function call(server: TestServer, method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT', url: string, token: string | null, payload?: object) {
  return server.app.inject({
    method,
    url,
    headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    remoteAddress: someClientAddress(),
    ...(payload ? { payload: JSON.stringify(payload) } : {}),
  });
}

async function person(server: TestServer, roles: Role[] = ['user'], email?: string) {
  const user = await server.createUser({ roles, ...(email ? { email } : {}) });
  return { ...user, token: (await signIn(server, user.email, user.password)).access_token };
}

async function log(server: TestServer, token: string, query = ''): Promise<{ data: AuditLogEntry[]; total: number }> {
  const page = await call(server, 'GET', `/api/admin/audit${query}`, token);
  expect(page.statusCode, page.body).toBe(200);
  return page.json();
}

describeEachDatabase('the audit log', (server) => {
  it('records every staff action with who did it, to whom and when, newest first, and filters by each', async () => {
    const admin = await person(server(), ['user', 'admin']);
    const support = await person(server(), ['user', 'support']);
    const customer = await person(server());
    const unverified = await server().createUser({ verified: false });
    const start = server().clock.now();
    const step = () => server().clock.advance(60);

    expect((await call(server(), 'PATCH', `/api/users/${customer.id}`, admin.token, { roles: ['user', 'analyst'] })).statusCode).toBe(200);
    step();
    expect((await call(server(), 'PATCH', `/api/users/${customer.id}`, admin.token, { roles: ['user'] })).statusCode).toBe(200);
    step();
    expect((await call(server(), 'POST', `/api/users/${customer.id}/view-as`, support.token)).statusCode).toBe(200);
    step();
    expect((await call(server(), 'POST', `/api/users/${customer.id}/sessions/end`, support.token)).statusCode).toBe(200);
    step();
    expect((await call(server(), 'POST', `/api/users/${unverified.id}/verification/resend`, support.token)).statusCode).toBe(200);
    step();
    expect((await call(server(), 'GET', '/api/users/export?search=zz-nobody', admin.token)).statusCode).toBe(200);
    step();
    const doomed = await server().createUser();
    expect((await call(server(), 'POST', '/api/users/bulk', admin.token, { action: 'delete', ids: [doomed.id] })).json().done).toEqual([doomed.id]);
    step();
    const code = `AUDIT-${randomUUID().slice(0, 6)}`.toUpperCase();
    expect((await call(server(), 'POST', '/api/coupons', admin.token, { code, grant: 'access', days: 7 })).statusCode).toBe(200);
    step();
    expect((await call(server(), 'POST', '/api/lite-keys/import', admin.token, { csv: 'key\nLITE-AAAA-BBBB-CCCC' })).statusCode).toBe(200);
    expect((await call(server(), 'GET', '/api/lite-keys/export', admin.token)).statusCode).toBe(200);
    // A customer's own actions are no staff actions.
    expect((await call(server(), 'DELETE', '/api/users/me/sessions', customer.token)).statusCode).not.toBe(403);

    const everything = await log(server(), admin.token, `?from=${start.toISOString()}&take=100`);
    const mine = everything.data.filter((entry) => [admin.id, support.id].includes(entry.actorId));
    expect(mine.map((entry) => entry.action)).toEqual([
      'lite_keys.exported',
      'lite_keys.imported',
      'coupon.created',
      'users.bulk',
      'user.deleted',
      'users.exported',
      'verification.resent',
      'sessions.ended',
      'account.viewed',
      'roles.changed',
      'roles.changed',
    ]);
    expect(mine.find((entry) => entry.action === 'roles.changed')).toMatchObject({
      actorId: admin.id,
      actorEmail: admin.email,
      actorRole: 'admin',
      subjectId: customer.id,
      subjectEmail: customer.email,
      details: { from: ['analyst', 'user'], to: ['user'] },
    });
    expect(mine.find((entry) => entry.action === 'users.bulk')).toMatchObject({ subjectId: null, details: { action: 'delete', selected: 1, done: 1, skipped: 0 } });
    expect(mine.find((entry) => entry.action === 'users.exported')?.details).toEqual({ search: 'zz-nobody' });
    expect(mine.find((entry) => entry.action === 'sessions.ended')).toMatchObject({ actorRole: 'support', subjectId: customer.id, details: { reason: 'ended-by-admin' } });

    // Each filter, alone and together; the count is of every match, not of the page.
    const byActor = await log(server(), admin.token, `?actor=${encodeURIComponent(support.email.toUpperCase())}`);
    expect(byActor.data.map((entry) => entry.action)).toEqual(['verification.resent', 'sessions.ended', 'account.viewed']);
    expect((await log(server(), admin.token, `?actor=${support.id}`)).total).toBe(3);
    expect((await log(server(), admin.token, `?action=roles.changed&subject=${encodeURIComponent(customer.email)}`)).total).toBe(2);
    expect((await log(server(), admin.token, `?subject=${customer.id}&actor=${support.id}`)).data.map((entry) => entry.action)).toEqual(['sessions.ended', 'account.viewed']);
    expect((await log(server(), admin.token, '?subject=nobody-at-all%40example.com')).total).toBe(0);
    const third = new Date(start.getTime() + 2 * 60_000).toISOString();
    const fourth = new Date(start.getTime() + 3 * 60_000).toISOString();
    expect((await log(server(), admin.token, `?actor=${support.id}&from=${third}&to=${fourth}`)).data.map((entry) => entry.action)).toEqual(['sessions.ended', 'account.viewed']);
    const day = start.toISOString().slice(0, 10);
    expect((await log(server(), admin.token, `?actor=${support.id}&from=${day}&to=${day}`)).total).toBe(3);
    expect((await log(server(), admin.token, `?actor=${support.id}&to=2000-01-01`)).total).toBe(0);
    const page = await log(server(), admin.token, `?actor=${admin.id}&skip=1&take=2`);
    expect(page.data.map((entry) => entry.action)).toEqual(['lite_keys.imported', 'coupon.created']);
    expect(page.total).toBe(8);
    for (const bad of ['?action=users.hacked', '?from=yesterday', '?take=101', '?skip=-1', '?extra=1']) {
      expect((await call(server(), 'GET', `/api/admin/audit${bad}`, admin.token)).statusCode, bad).toBe(400);
    }
  });

  it("keeps what staff did to an account after the account and the staff member's are gone", async () => {
    const admin = await person(server(), ['user', 'admin']);
    const support = await person(server(), ['user', 'support']);
    const customer = await person(server());
    expect((await call(server(), 'POST', `/api/users/${customer.id}/view-as`, support.token)).statusCode).toBe(200);
    expect((await call(server(), 'POST', `/api/users/${customer.id}/sessions/end`, support.token)).statusCode).toBe(200);
    // The customer deletes their own account: the timeline goes with it, the audit log stays.
    const gone = await call(server(), 'DELETE', '/api/users/me', (await signIn(server(), customer.email, customer.password)).access_token, { password: customer.password });
    expect(gone.statusCode, gone.body).toBe(204);
    expect(await server().db.kysely.selectFrom('activity_log').select('kind').where('user_id', '=', customer.id).execute()).toEqual([{ kind: 'account.deleted' }]);
    // The support member's account goes too (an admin deletes it).
    expect((await call(server(), 'DELETE', `/api/users/${support.id}`, admin.token)).statusCode).toBe(200);
    const kept = await log(server(), admin.token, `?subject=${customer.id}`);
    expect(kept.data.map((entry) => [entry.action, entry.actorEmail, entry.actorRole, entry.subjectId, entry.subjectEmail])).toEqual([
      ['sessions.ended', support.email, 'support', customer.id, null],
      ['account.viewed', support.email, 'support', customer.id, null],
    ]);
    // Found by the staff member's email after their account is gone, and the deletion of theirs is there.
    expect((await log(server(), admin.token, `?actor=${encodeURIComponent(support.email)}`)).total).toBe(2);
    expect((await log(server(), admin.token, `?action=user.deleted&subject=${support.id}`)).data[0]).toMatchObject({ actorId: admin.id, subjectEmail: null });
  });

  it('exports the filtered log as CSV with formulas escaped, and records the export', async () => {
    const admin = await person(server(), ['user', 'admin']);
    // Emails are typed by whoever signs up: one that reads as a formula must reach a spreadsheet as text.
    const formula = await person(server(), ['user'], `=hyperlink(${randomUUID().slice(0, 4)})@example.com`);
    const minus = await person(server(), ['user'], `-2+3-${randomUUID().slice(0, 4)}@example.com`);
    for (const target of [formula, minus]) expect((await call(server(), 'POST', `/api/users/${target.id}/sessions/end`, admin.token)).statusCode).toBe(200);
    const exported = await call(server(), 'GET', `/api/admin/audit/export?actor=${admin.id}&action=sessions.ended`, admin.token);
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(exported.headers['content-disposition']).toMatch(/^attachment; filename="shapelab-audit-\d{4}-\d{2}-\d{2}\.csv"$/);
    const rows = parse(exported.body) as string[][];
    expect(rows[0]).toEqual(['id', 'createdAt', 'actorId', 'actorEmail', 'actorRole', 'action', 'subjectId', 'subjectEmail', 'details']);
    expect(rows.slice(1).map((row) => [row[3], row[5], row[6], row[7]])).toEqual([
      [admin.email, 'sessions.ended', minus.id, `'${minus.email}`],
      [admin.email, 'sessions.ended', formula.id, `'${formula.email}`],
    ]);
    expect(JSON.parse(rows[1]?.[8] ?? '')).toMatchObject({ reason: 'ended-by-admin' });
    // The page's entries and the file's are the same, in the same order.
    const page = await log(server(), admin.token, `?actor=${admin.id}&action=sessions.ended`);
    expect(rows.slice(1).map((row) => row[0])).toEqual(page.data.map((entry) => entry.id));
    const recorded = await log(server(), admin.token, `?actor=${admin.id}&action=audit.exported`);
    expect(recorded.data[0]?.details).toEqual({ actor: admin.id, action: 'sessions.ended' });
    // The export is the audit log's, and what it filters on: support may not take it.
    const support = await person(server(), ['user', 'support']);
    expect((await call(server(), 'GET', '/api/admin/audit/export', support.token)).statusCode).toBe(403);
  });

  it('changes through no route, and the database refuses to change or delete an entry', async () => {
    const admin = await person(server(), ['user', 'admin']);
    const customer = await person(server());
    expect((await call(server(), 'POST', `/api/users/${customer.id}/sessions/end`, admin.token)).statusCode).toBe(200);
    const [entry] = (await log(server(), admin.token, `?subject=${customer.id}`)).data;
    if (!entry) throw new Error('no entry');
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      for (const url of ['/api/admin/audit', `/api/admin/audit/${entry.id}`]) {
        expect((await call(server(), method, url, admin.token, {})).statusCode, `${method} ${url}`).toBe(404);
      }
    }
    const db = server().db.kysely;
    await expect(db.updateTable('audit_log').set({ actor_email: 'someone@else' }).where('id', '=', entry.id).execute()).rejects.toThrow(/append-only/);
    await expect(db.deleteFrom('audit_log').where('id', '=', entry.id).execute()).rejects.toThrow(/append-only/);
    if (server().kind === 'postgres') await expect(sql`truncate audit_log`.execute(db)).rejects.toThrow(/append-only/);
    expect((await log(server(), admin.token, `?subject=${customer.id}`)).data).toEqual([entry]);
  });
});
