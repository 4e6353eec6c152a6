import Fastify from 'fastify';
import type { Kysely } from 'kysely';
import { expect, it } from 'vitest';
import { PERMISSIONS, ROLE_PERMISSIONS, type Permission } from '../../contract/permissions.js';
import type { Role } from '../../contract/roles.js';
import { staffRolesAndAuditLog } from '../../server/db/migrations/0022-staff-roles-and-audit-log.js';
import { createGuards, requirePermissions, type Guards } from '../../server/plugins/authentication.js';
import { signIn, someClientAddress, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * Issue 47: the staff roles and what each may do, decided by the server. Every admin route names the
 * permission it needs in its config and the staff guard checks it; the table below is every admin route of
 * the OpenAPI document (made from the registered routes) called by each role, so a new admin route is in it
 * without anyone adding it, and one without a permission stops the app before any test runs.
 */

/**
 * What the issue gives each staff role, written out here rather than read from contract/permissions.ts, so
 * the table is checked against the issue and not against itself. support: list, search and open users, resend
 * verification, end sessions, release devices, reset a second factor, view as user, read one user's audit
 * log. analyst: analytics, cohorts and store channels. admin: everything.
 */
const ISSUE: Record<Exclude<Role, 'user'>, readonly Permission[]> = {
  admin: PERMISSIONS,
  support: ['users.read', 'users.resendVerification', 'users.endSessions', 'users.releaseDevices', 'users.resetTwoFactor', 'users.viewAs', 'users.audit'],
  analyst: ['analytics.read'],
};

interface Operation {
  tags?: string[];
  security?: Record<string, string[]>[];
  'x-permission'?: string;
  responses?: Record<string, unknown>;
}
type Document = { paths: Record<string, Record<string, Operation>> };

const MISSING = '00000000-0000-4000-8000-000000000000';
const CALLERS = ['admin', 'support', 'analyst', 'user', 'anonymous'] as const;
type Caller = (typeof CALLERS)[number];

async function tokenOf(server: TestServer, roles: Role[]): Promise<{ id: string; email: string; password: string; token: string }> {
  const user = await server.createUser({ roles });
  return { ...user, token: (await signIn(server, user.email, user.password)).access_token };
}

function call(server: TestServer, method: string, url: string, token: string | null, payload?: object) {
  return server.app.inject({
    method: method as 'GET',
    url,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    remoteAddress: someClientAddress(),
    payload: JSON.stringify(payload ?? {}),
  });
}

/** Every staff operation of the document: each answers with the caller's role as the table says. */
function staffOperations(document: Document): { method: string; path: string; permission: string | undefined }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([, operation]) => operation.tags?.includes('Admin'))
      .map(([method, operation]) => ({ method: method.toUpperCase(), path, permission: operation['x-permission'] })),
  );
}

describeEachDatabase('staff roles and permissions', (server) => {
  it("gives each role exactly the issue's powers", () => {
    for (const role of ['admin', 'support', 'analyst'] as const) expect([...ROLE_PERMISSIONS[role]].sort(), role).toEqual([...ISSUE[role]].sort());
    expect(ROLE_PERMISSIONS.user).toEqual([]);
  });

  it('answers every admin route by role: admin, support, analyst, user and anonymous, as each permission says', async () => {
    const document = (await server().app.inject({ method: 'GET', url: '/api/openapi.json' })).json<Document>();
    const operations = staffOperations(document);
    // The document holds the admin area: the users list and page, their actions, the audit log, analytics, jobs...
    expect(operations.length).toBeGreaterThan(25);
    for (const { method, path, permission } of operations) expect(PERMISSIONS, `${method} ${path} names its permission`).toContain(permission);

    const tokens: Record<Caller, string | null> = {
      admin: (await tokenOf(server(), ['user', 'admin'])).token,
      support: (await tokenOf(server(), ['user', 'support'])).token,
      analyst: (await tokenOf(server(), ['user', 'analyst'])).token,
      user: (await tokenOf(server(), ['user'])).token,
      anonymous: null,
    };
    const expected = (caller: Caller, permission: Permission): 'allowed' | 401 | 403 => {
      if (caller === 'anonymous') return 401;
      if (caller === 'user') return 403;
      return ISSUE[caller].includes(permission) ? 'allowed' : 403;
    };
    const table: string[] = [];
    const wrong: string[] = [];
    for (const { method, path, permission } of operations) {
      // A made-up id for every path parameter: a role that may call the route hears 404 (or 400 for the empty
      // body), never 401 or 403; nothing is changed.
      const url = path.replace('{transactionId}', 'txn_00000000').replace(/\{[^}]+\}/g, MISSING);
      const row: string[] = [];
      for (const caller of CALLERS) {
        const answer = await call(server(), method, url, tokens[caller]);
        const want = expected(caller, permission as Permission);
        const got = answer.statusCode === 401 || answer.statusCode === 403 ? answer.statusCode : 'allowed';
        row.push(`${caller}:${got}`);
        if (got !== want) wrong.push(`${method} ${path} as ${caller}: ${answer.statusCode} ${answer.body.slice(0, 80)}, expected ${want}`);
        if (got === 403) expect(answer.json().messageKey, `${method} ${path} as ${caller}`).toBe('FORBIDDEN');
      }
      table.push(`${method} ${path} [${permission}] ${row.join(' ')}`);
    }
    expect(wrong, table.join('\n')).toEqual([]);
    // Every staff route lists its 403 in the document.
    for (const { method, path } of operations) expect(document.paths[path]?.[method.toLowerCase()]?.responses?.['403'], `${method} ${path}`).toBeDefined();
  });

  it('refuses to start with an admin route that names no permission, or a permission without the staff guard', async () => {
    const guards = createGuards({
      accessTokens: {} as never,
      signedIn: {} as never,
      sessions: {} as never,
      clock: { now: () => new Date() },
      staffTwoFactor: 'optional',
    });
    const build = async (add: (app: ReturnType<typeof Fastify>, guards: Guards) => void) => {
      const app = Fastify();
      requirePermissions(app, guards);
      try {
        add(app, guards);
        await app.ready();
      } finally {
        await app.close();
      }
    };
    await expect(build((app) => app.get('/api/admin/new', { onRequest: guards.staff }, async () => ({})))).rejects.toThrow(
      'GET /api/admin/new runs the staff guard without a permission',
    );
    await expect(build((app) => app.get('/api/admin/typo', { onRequest: guards.staff, config: { permission: 'users.raed' as Permission } }, async () => ({})))).rejects.toThrow(
      'without a permission',
    );
    await expect(build((app) => app.get('/api/me/thing', { onRequest: guards.user, config: { permission: 'users.read' } }, async () => ({})))).rejects.toThrow(
      'names a permission but does not run the staff guard',
    );
    await build((app) => app.get('/api/admin/fine', { onRequest: guards.staff, config: { permission: 'users.read' } }, async () => ({})));
  });

  it('says in /users/me what the roles allow, and lets every staff role in at /admin/login but no customer', async () => {
    for (const [roles, permissions] of [
      [['user'], []],
      [['user', 'support'], ISSUE.support],
      [['user', 'analyst'], ISSUE.analyst],
      [['user', 'analyst', 'support'], [...ISSUE.support, ...ISSUE.analyst]],
      [['user', 'admin'], PERMISSIONS],
    ] as [Role[], Permission[]][]) {
      const person = await server().createUser({ roles });
      const me = (await call(server(), 'GET', '/api/users/me', (await signIn(server(), person.email, person.password)).access_token)).json();
      expect([...me.permissions].sort(), roles.join()).toEqual([...new Set(permissions)].sort());
      expect(me.readOnlyView).toBeNull();
      const admin = await server().app.inject({ method: 'POST', url: '/api/auth/admin-login', payload: { email: person.email, password: person.password }, remoteAddress: someClientAddress() });
      if (roles.length === 1) {
        expect(admin.statusCode).toBe(403);
        expect(admin.json().messageKey).toBe('NOT_AN_ADMIN');
      } else {
        expect(admin.statusCode, roles.join()).toBe(200);
      }
    }
  });

  it('lets admins give and take the staff roles; the last-admin and not-yourself rules stay', async () => {
    const boss = await tokenOf(server(), ['user', 'admin']);
    const person = await server().createUser();
    const set = (token: string, id: string, roles: Role[]) => call(server(), 'PATCH', `/api/users/${id}`, token, { roles });
    const support = await set(boss.token, person.id, ['user', 'support']);
    expect(support.statusCode, support.body).toBe(200);
    expect(support.json()).toMatchObject({ roles: ['support', 'user'], isAdmin: false });
    const personToken = (await signIn(server(), person.email, person.password)).access_token;
    expect((await call(server(), 'GET', '/api/users', personToken)).statusCode).toBe(200);
    // Support may not change roles, not even its own.
    expect((await set(personToken, person.id, ['user', 'support', 'admin'])).statusCode).toBe(403);
    // Analyst as well: the next request reads the new roles.
    expect((await set(boss.token, person.id, ['user', 'support', 'analyst'])).json().roles).toEqual(['analyst', 'support', 'user']);
    expect((await call(server(), 'GET', '/api/analytics/first-day', personToken)).statusCode).not.toBe(403);
    expect((await set(boss.token, person.id, ['user'])).json().roles).toEqual(['user']);
    expect((await call(server(), 'GET', '/api/users', personToken)).statusCode).toBe(403);

    // An admin keeps their own admin role; taking support or analyst beside it is fine.
    const own = await set(boss.token, boss.id, ['user', 'support']);
    expect(own.statusCode).toBe(409);
    expect(own.json().messageKey).toBe('CANNOT_MODIFY_SELF');
    expect((await set(boss.token, boss.id, ['user', 'admin', 'analyst'])).json().roles).toEqual(['admin', 'analyst', 'user']);

    // A bulk grant or revoke of the admin role leaves the other staff roles as they were.
    const analyst = await server().createUser({ roles: ['user', 'analyst'] });
    const bulk = (action: string) => call(server(), 'POST', '/api/users/bulk', boss.token, { action, ids: [analyst.id] });
    expect((await bulk('grant-admin')).json().done).toEqual([analyst.id]);
    expect((await call(server(), 'GET', `/api/users/${analyst.id}`, boss.token)).json().user.roles).toEqual(['admin', 'analyst', 'user']);
    expect((await bulk('revoke-admin')).json().done).toEqual([analyst.id]);
    expect((await call(server(), 'GET', `/api/users/${analyst.id}`, boss.token)).json().user.roles).toEqual(['analyst', 'user']);
  });

  it('never lets the portal lose its last admin to a role change into support', async () => {
    // Every admin but one demoted first (the database is shared by the file's tests).
    const boss = await tokenOf(server(), ['user', 'admin']);
    const admins = await server().db.kysely.selectFrom('user_roles').select('user_id').where('role', '=', 'admin').where('user_id', '!=', boss.id).execute();
    for (const { user_id: id } of admins) expect((await call(server(), 'PATCH', `/api/users/${id}`, boss.token, { roles: ['user'] })).statusCode).toBe(200);
    const last = await call(server(), 'PATCH', `/api/users/${boss.id}`, boss.token, { roles: ['user', 'support'] });
    expect(last.statusCode).toBe(409);
    const other = await tokenOf(server(), ['user', 'admin']);
    const demoted = await call(server(), 'PATCH', `/api/users/${boss.id}`, other.token, { roles: ['user', 'support'] });
    expect(demoted.statusCode, demoted.body).toBe(200);
    const lastOne = await call(server(), 'PATCH', `/api/users/${other.id}`, (await tokenOf(server(), ['user', 'support'])).token, { roles: ['user'] });
    expect(lastOne.statusCode).toBe(403);
  });

  it('stores the staff roles and no others, keeps users.is_admin in step, and migrates down and up again', async () => {
    const db = server().db.kysely;
    const isAdmin = async (id: string) => Number((await db.selectFrom('users').select('is_admin').where('id', '=', id).executeTakeFirstOrThrow()).is_admin);
    const person = await server().createUser({ roles: ['user', 'support'] });
    await expect(db.insertInto('user_roles').values({ user_id: person.id, role: 'superuser' }).execute()).rejects.toThrow();
    await db.insertInto('user_roles').values({ user_id: person.id, role: 'admin' }).execute();
    expect(await isAdmin(person.id)).toBe(1);
    await db.deleteFrom('user_roles').where('user_id', '=', person.id).where('role', '=', 'admin').execute();
    expect(await isAdmin(person.id)).toBe(0);

    const boss = await server().createUser({ roles: ['user', 'admin'] });
    const { up, down } = staffRolesAndAuditLog(server().db.dialect);
    if (!down) throw new Error('0022 has a down migration');
    await down(db as Kysely<unknown>);
    try {
      // The roles before 0022 stay (the staff roles it added go), and so does what the triggers keep.
      const rows = await db.selectFrom('user_roles').select('role').where('user_id', 'in', [person.id, boss.id]).orderBy('role').execute();
      expect(rows.map((row) => row.role)).toEqual(['admin', 'user', 'user']);
      await expect(db.insertInto('user_roles').values({ user_id: person.id, role: 'support' }).execute()).rejects.toThrow();
      expect(await isAdmin(boss.id)).toBe(1);
    } finally {
      await up(db as Kysely<unknown>);
    }
    await db.insertInto('user_roles').values({ user_id: person.id, role: 'analyst' }).execute();
    expect(await isAdmin(boss.id)).toBe(1);
    await db.deleteFrom('user_roles').where('user_id', '=', boss.id).where('role', '=', 'admin').execute();
    expect(await isAdmin(boss.id)).toBe(0);
  });
});
