import { expect, it } from 'vitest';
import type { Role } from '../../contract/roles.js';
import { signIn, someClientAddress, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * Issue 47, "view as this user": support opens a read-only session of a customer's account, at most 15
 * minutes long, that sees what the customer sees and changes nothing. Every mutating route of the account API
 * (from the OpenAPI document, which is made from the registered routes) answers it 403 READ_ONLY_VIEW but the
 * few that only read by POST; no staff route answers it; a staff account is never viewed; the customer's
 * timeline, security page and the audit log record it.
 */

const MISSING = '00000000-0000-4000-8000-000000000000';
/** The test clock moves in seconds. */
const MINUTE = 60;

/** The account routes a view may call with a method other than GET: previews by POST, and its own end. */
const READS_BY_POST = ['POST /api/perpetual/preload', 'POST /api/subscription/preload', 'POST /api/subscription/change/preview'];
const SIGN_OUT = 'POST /api/auth/logout';

interface Operation {
  tags?: string[];
  security?: Record<string, string[]>[];
  responses?: Record<string, { description?: string }>;
}
type Document = { paths: Record<string, Record<string, Operation>> };

function call(server: TestServer, method: string, url: string, token: string | null, payload?: object) {
  return server.app.inject({
    method: method as 'GET',
    url,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    remoteAddress: someClientAddress(),
    payload: JSON.stringify(payload ?? {}),
  });
}

async function person(server: TestServer, roles: Role[] = ['user']) {
  const user = await server.createUser({ roles });
  return { ...user, token: (await signIn(server, user.email, user.password)).access_token };
}

async function openView(server: TestServer, staffToken: string, userId: string): Promise<{ access_token: string; expiresAt: string }> {
  const view = await call(server, 'POST', `/api/users/${userId}/view-as`, staffToken);
  expect(view.statusCode, view.body).toBe(200);
  return view.json();
}

describeEachDatabase('view as this user', (server) => {
  it("sees the customer's account as they do, for 15 minutes, and acts as no staff member", async () => {
    const support = await person(server(), ['user', 'support']);
    const customer = await person(server());
    const view = await openView(server(), support.token, customer.id);
    expect(view.expiresAt).toBe(new Date(server().clock.now().getTime() + 15 * MINUTE * 1000).toISOString());
    const me = await call(server(), 'GET', '/api/users/me', view.access_token);
    expect(me.json()).toMatchObject({ id: customer.id, email: customer.email, permissions: [], readOnlyView: { expiresAt: view.expiresAt } });
    for (const url of ['/api/users/me/overview', '/api/users/me/sessions', '/api/subscription/user', '/api/perpetual/seats', '/api/users/me/two-factor']) {
      expect((await call(server(), 'GET', url, view.access_token)).statusCode, url).toBe(200);
    }
    // Never staff: the admin area refuses the view whoever opened it.
    for (const url of ['/api/users', `/api/users/${customer.id}`, '/api/admin/audit']) {
      const refused = await call(server(), 'GET', url, view.access_token);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json().messageKey).toBe('FORBIDDEN');
    }
    // Past half its life no renewed token comes back (a renewal must never drop the view's mark), and the
    // view cannot be renewed with an offline token: it has none.
    server().clock.advance(10 * MINUTE);
    const late = await call(server(), 'GET', '/api/users/me', view.access_token);
    expect(late.statusCode, late.body).toBe(200);
    expect(late.headers.bearer).toBeUndefined();
    server().clock.advance(5 * MINUTE);
    const over = await call(server(), 'GET', '/api/users/me', view.access_token);
    expect(over.statusCode).toBe(401);
    expect(over.json().messageKey).toBe('SESSION_EXPIRED');
  });

  it('refuses every write of the account API with READ_ONLY_VIEW, and changes nothing', async () => {
    const document = (await server().app.inject({ method: 'GET', url: '/api/openapi.json' })).json<Document>();
    const writes = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method, operation]) => method !== 'get' && !operation.tags?.includes('Admin') && operation.security?.some((requirement) => 'accessToken' in requirement))
        .map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path, operation })),
    );
    // The account API: the profile, password, email, social links, second factor, passkeys, sessions, billing
    // info, subscription, checkout, coupons, devices, downloads, deletion...
    expect(writes.length).toBeGreaterThan(30);
    const support = await person(server(), ['user', 'support']);
    const customer = await person(server());
    const before = (await call(server(), 'GET', '/api/users/me', customer.token)).json();
    const { access_token: token } = await openView(server(), support.token, customer.id);
    const wrong: string[] = [];
    for (const { key, method, path, operation } of writes) {
      if (key === SIGN_OUT) continue;
      const answer = await call(server(), method, path.replace(/\{[^}]+\}/g, MISSING), token);
      const refused = answer.statusCode === 403 && answer.json<{ messageKey: string }>().messageKey === 'READ_ONLY_VIEW';
      if (refused === READS_BY_POST.includes(key)) wrong.push(`${key}: ${answer.statusCode} ${answer.body.slice(0, 80)}`);
      // The document says which answer READ_ONLY_VIEW, so a client knows.
      if (refused && !operation.responses?.['403']?.description?.includes('READ_ONLY_VIEW')) wrong.push(`${key}: READ_ONLY_VIEW not documented`);
    }
    expect(wrong).toEqual([]);
    // The refusals came before anything was done: the customer's account is as it was, their session live.
    expect((await call(server(), 'GET', '/api/users/me', customer.token)).json()).toEqual(before);
    // Its own end it may do: the view's session ends, its token is refused from then on.
    expect((await call(server(), 'POST', '/api/auth/logout', token)).statusCode).toBe(204);
    expect((await call(server(), 'GET', '/api/users/me', token)).statusCode).toBe(401);
  });

  it('is never opened for a staff account, by an analyst or a customer, or for no one', async () => {
    const support = await person(server(), ['user', 'support']);
    for (const roles of [['user', 'admin'], ['user', 'support'], ['user', 'analyst']] as Role[][]) {
      const staff = await server().createUser({ roles });
      const refused = await call(server(), 'POST', `/api/users/${staff.id}/view-as`, support.token);
      expect(refused.statusCode, roles.join()).toBe(403);
      expect(refused.json().messageKey).toBe('STAFF_NOT_VIEWABLE');
    }
    const customer = await server().createUser();
    for (const roles of [['user', 'analyst'], ['user']] as Role[][]) {
      const refused = await call(server(), 'POST', `/api/users/${customer.id}/view-as`, (await person(server(), roles)).token);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().messageKey).toBe('FORBIDDEN');
    }
    expect((await call(server(), 'POST', `/api/users/${MISSING}/view-as`, support.token)).json().messageKey).toBe('USER_NOT_FOUND');
    // An admin may view a customer too, and a view cannot open another view.
    const admin = await person(server(), ['user', 'admin']);
    const view = await openView(server(), admin.token, customer.id);
    expect((await call(server(), 'POST', `/api/users/${customer.id}/view-as`, view.access_token)).statusCode).toBe(403);
    // Nor does a view keep a customer's new staff role: it is refused as staff, and its writes stay refused.
    expect((await call(server(), 'PATCH', `/api/users/${customer.id}`, admin.token, { roles: ['user', 'support'] })).statusCode).toBe(200);
    expect((await call(server(), 'GET', '/api/users', view.access_token)).statusCode).toBe(403);
    expect((await call(server(), 'GET', '/api/users/me', view.access_token)).json().permissions).toEqual([]);
  });

  it("is recorded on the customer's timeline, security page and the audit log, and the customer may end it", async () => {
    const support = await person(server(), ['user', 'support']);
    const admin = await person(server(), ['user', 'admin']);
    const customer = await person(server());
    const view = await openView(server(), support.token, customer.id);

    const timeline = (await call(server(), 'GET', `/api/users/${customer.id}/activity`, admin.token)).json().data;
    expect(timeline[0]).toMatchObject({ kind: 'account.viewed', actorId: support.id, actorEmail: support.email, details: { until: view.expiresAt } });
    const history = (await call(server(), 'GET', `/api/users/${customer.id}/audit`, support.token)).json();
    expect(history[0]).toMatchObject({ action: 'account.viewed', actorEmail: support.email });
    const audit = (await call(server(), 'GET', `/api/admin/audit?subject=${customer.id}`, admin.token)).json();
    expect(audit.data).toEqual([expect.objectContaining({ action: 'account.viewed', actorId: support.id, actorEmail: support.email, actorRole: 'support', subjectId: customer.id, subjectEmail: customer.email })]);

    // The security page: the view among the sessions, marked and without the staff member's browser or
    // address, and the record of views, which stays after the view ends.
    const sessions = (await call(server(), 'GET', '/api/users/me/sessions', customer.token)).json();
    const shown = sessions.find((session: { supportView: boolean }) => session.supportView);
    expect(shown).toMatchObject({ supportView: true, browser: null, os: null, address: null, current: false, expiresAt: view.expiresAt });
    expect((await call(server(), 'GET', '/api/users/me/views', customer.token)).json()).toEqual([{ viewedAt: server().clock.now().toISOString(), until: view.expiresAt }]);
    expect((await call(server(), 'DELETE', `/api/users/me/sessions/${shown.id}`, customer.token)).statusCode).toBe(204);
    expect((await call(server(), 'GET', '/api/users/me', view.access_token)).statusCode).toBe(401);
    expect((await call(server(), 'GET', '/api/users/me/views', customer.token)).json()).toHaveLength(1);
  });

  it("ends a staff member's open views when their roles no longer allow them, or their account goes", async () => {
    const admin = await person(server(), ['user', 'admin']);
    const support = await person(server(), ['user', 'support']);
    const customer = await person(server());
    const first = await openView(server(), support.token, customer.id);
    expect((await call(server(), 'PATCH', `/api/users/${support.id}`, admin.token, { roles: ['user', 'analyst'] })).statusCode).toBe(200);
    expect((await call(server(), 'GET', '/api/users/me', first.access_token)).statusCode).toBe(401);

    const other = await person(server(), ['user', 'support']);
    const second = await openView(server(), other.token, customer.id);
    expect((await call(server(), 'DELETE', `/api/users/${other.id}`, admin.token)).statusCode).toBe(200);
    expect((await call(server(), 'GET', '/api/users/me', second.access_token)).statusCode).toBe(401);
    // The customer's own session was never touched.
    expect((await call(server(), 'GET', '/api/users/me', customer.token)).statusCode).toBe(200);
  });
});
