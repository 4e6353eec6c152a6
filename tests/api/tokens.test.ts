import { SignJWT } from 'jose';
import { expect, it } from 'vitest';
import { signIn, someClientAddress, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const FIREFOX_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

function me(server: TestServer, token: string) {
  return server.app.inject({ method: 'GET', url: '/api/users/me', headers: { authorization: `Bearer ${token}` } });
}

async function signWith(secret: string, claims: Record<string, unknown>, options: { exp?: number; alg?: string } = {}) {
  const now = Math.floor(Date.now() / 1000);
  let jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: options.alg ?? 'HS256', typ: 'JWT' })
    .setIssuer('shapelab-portal')
    .setAudience('shapelab-portal')
    .setIssuedAt(now);
  if (options.exp !== undefined) jwt = jwt.setExpirationTime(options.exp);
  return jwt.sign(new TextEncoder().encode(secret));
}

describeEachDatabase('access tokens', (server) => {
  it('a valid token reads the current user', async () => {
    const user = await server().createUser({ email: 'reader@example.com' });
    const { access_token } = await signIn(server(), user.email, user.password);
    const response = await me(server(), access_token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: user.id, email: 'reader@example.com', roles: ['user'], emailVerified: true });
    expect(response.json()).not.toHaveProperty('password_hash');
    expect(response.json()).not.toHaveProperty('passwordHash');
  });

  it('no token, or a malformed Authorization header, is a 401 UNAUTHORIZED', async () => {
    const none = await server().app.inject({ method: 'GET', url: '/api/users/me' });
    expect(none.statusCode).toBe(401);
    expect(none.json().messageKey).toBe('UNAUTHORIZED');
    const basic = await server().app.inject({ method: 'GET', url: '/api/users/me', headers: { authorization: 'Basic abc' } });
    expect(basic.statusCode).toBe(401);
  });

  it('a tampered token is refused', async () => {
    const user = await server().createUser();
    const { access_token } = await signIn(server(), user.email, user.password);
    const [header, , signature] = access_token.split('.');
    const forgedPayload = b64url({ sub: user.id, roles: ['user', 'admin'], exp: 9_999_999_999, iat: 1 });
    const response = await me(server(), `${header}.${forgedPayload}.${signature}`);
    expect(response.statusCode).toBe(401);
    expect(response.json().messageKey).toBe('UNAUTHORIZED');
  });

  it('an alg:none token is refused', async () => {
    const user = await server().createUser();
    const token = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({
      sub: user.id,
      roles: ['admin'],
      iss: 'shapelab-portal',
      aud: 'shapelab-portal',
      iat: 1,
      exp: 9_999_999_999,
    })}.`;
    expect((await me(server(), token)).statusCode).toBe(401);
  });

  it('a token signed with another key is refused', async () => {
    const user = await server().createUser();
    const token = await signWith('another-secret-that-is-long-enough-to-sign-with', { sub: user.id, roles: ['user'] }, { exp: 9_999_999_999 });
    expect((await me(server(), token)).statusCode).toBe(401);
  });

  it('a token without exp is refused even with the right key', async () => {
    const user = await server().createUser();
    const token = await signWith(server().config.jwtSecret, { sub: user.id, roles: ['user'] });
    expect((await me(server(), token)).statusCode).toBe(401);
  });

  it('a token with another algorithm (HS512) is refused even with the right key', async () => {
    const user = await server().createUser();
    const token = await signWith(server().config.jwtSecret, { sub: user.id }, { exp: 9_999_999_999, alg: 'HS512' });
    expect((await me(server(), token)).statusCode).toBe(401);
  });

  it('an expired token is a 401 SESSION_EXPIRED (3600 s lifetime, by the server clock)', async () => {
    const user = await server().createUser();
    const { access_token } = await signIn(server(), user.email, user.password);
    server().clock.advance(3599);
    expect((await me(server(), access_token)).statusCode).toBe(200);
    server().clock.advance(2);
    const expired = await me(server(), access_token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ messageKey: 'SESSION_EXPIRED', message: 'Your session has expired.' });
  });

  it('past half its life a token is replaced through the Bearer response header', async () => {
    const user = await server().createUser();
    const { access_token } = await signIn(server(), user.email, user.password);
    const early = await me(server(), access_token);
    expect(early.headers.bearer).toBeUndefined();
    server().clock.advance(1801);
    const late = await me(server(), access_token);
    expect(late.statusCode).toBe(200);
    const renewed = String(late.headers.bearer);
    expect(renewed).toMatch(/^ey/);
    server().clock.advance(3000);
    expect((await me(server(), access_token)).statusCode).toBe(401);
    expect((await me(server(), renewed)).statusCode).toBe(200);
  });

  it("a deleted user's token stops working at once", async () => {
    const user = await server().createUser();
    const { access_token } = await signIn(server(), user.email, user.password);
    await server().db.kysely.deleteFrom('users').where('id', '=', user.id).execute();
    const response = await me(server(), access_token);
    expect(response.statusCode).toBe(401);
  });
});

describeEachDatabase('offline tokens (remember me)', (server) => {
  const validate = (offlineToken: string, authToken = '') =>
    server().app.inject({
      method: 'POST',
      url: '/api/auth/validate',
      payload: { authToken, offlineToken },
      remoteAddress: someClientAddress(),
    });

  it('renews an access token and rotates the offline token', async () => {
    const user = await server().createUser();
    const first = await signIn(server(), user.email, user.password, true);
    server().clock.advance(4000);
    const renewed = await validate(first.offline_token as string, first.access_token);
    expect(renewed.statusCode).toBe(200);
    const body = renewed.json<{ access_token: string; offline_token: string }>();
    expect(body.offline_token).not.toBe(first.offline_token);
    expect((await me(server(), body.access_token)).statusCode).toBe(200);
  });

  it('reusing a rotated token after the grace ends its whole session: every branch answers 401 and the owner is mailed (issue 44)', async () => {
    const user = await server().createUser();
    const other = await signIn(server(), user.email, user.password, true);
    const first = await signIn(server(), user.email, user.password, true);
    // Two tabs renew with the same token inside the grace: two branches, each with tokens of its own; one renews on.
    const [tabA, tabB] = (await Promise.all([validate(first.offline_token as string), validate(first.offline_token as string)])).map((answer) =>
      answer.json<{ access_token: string; offline_token: string }>(),
    );
    server().clock.advance(30);
    const tabA2 = (await validate(tabA?.offline_token as string)).json<{ access_token: string; offline_token: string }>();
    const accessTokens = [first.access_token, tabA?.access_token, tabB?.access_token, tabA2.access_token] as string[];
    for (const token of accessTokens) expect((await me(server(), token)).statusCode).toBe(200);

    server().clock.advance(60);
    const replay = await server().app.inject({
      method: 'POST',
      url: '/api/auth/validate',
      payload: { authToken: '', offlineToken: first.offline_token },
      headers: { 'user-agent': FIREFOX_ON_LINUX },
      remoteAddress: '203.0.113.7',
    });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().messageKey).toBe('INVALID_TOKEN');
    // Every access token of every branch is refused from the next request; every offline token too.
    for (const token of accessTokens) expect((await me(server(), token)).statusCode, token).toBe(401);
    for (const token of [tabB?.offline_token, tabA2.offline_token] as string[]) expect((await validate(token)).statusCode).toBe(401);
    const ended = await server().db.kysely.selectFrom('sessions').select(['ended_reason']).where('user_id', '=', user.id).where('ended_at', 'is not', null).execute();
    expect(ended).toEqual([{ ended_reason: 'token-reused' }]);
    // The user's other session is not the stolen one: it goes on.
    expect((await me(server(), other.access_token)).statusCode).toBe(200);

    await server().app.jobs.idle();
    const mails = await server().db.kysely.selectFrom('outbox').select(['subject', 'text']).where('to_address', '=', user.email).execute();
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('We signed out a session of your Shapelab account');
    expect(mails[0]?.text).toContain('Browser: Firefox 133\nSystem: Linux\nAddress: 203.0.113.7');
    expect(mails[0]?.text).toMatch(/ended that session at \d{1,2} [A-Z][a-z]+ \d{4} at \d{2}:\d{2} UTC/);
    expect(mails[0]?.text).toContain('http://localhost:3000/en/account/security');
    expect(mails[0]?.text).toContain('http://localhost:3000/en/account/profile');
    // Replayed again: still refused, and no second mail.
    expect((await validate(first.offline_token as string)).statusCode).toBe(401);
    await server().app.jobs.idle();
    expect(await server().db.kysely.selectFrom('outbox').select('id').where('to_address', '=', user.email).execute()).toHaveLength(1);
  });

  it('the mail about a stolen token is in the owner’s language', async () => {
    const user = await server().createUser();
    await server().db.kysely.updateTable('users').set({ language: 'de' }).where('id', '=', user.id).execute();
    const first = await signIn(server(), user.email, user.password, true);
    expect((await validate(first.offline_token as string)).statusCode).toBe(200);
    server().clock.advance(60);
    expect((await validate(first.offline_token as string)).statusCode).toBe(401);
    await server().app.jobs.idle();
    const [mail] = await server().db.kysely.selectFrom('outbox').select(['subject', 'text']).where('to_address', '=', user.email).execute();
    expect(mail?.subject).toBe('Wir haben eine Sitzung deines Shapelab-Kontos abgemeldet');
    expect(mail?.text).toContain('Browser: unbekannt');
    expect(mail?.text).toMatch(/am \d{1,2}\. [A-Z][a-zä]+ 2026 um \d{2}:\d{2} UTC überall beendet/);
    expect(mail?.text).toContain('http://localhost:3000/de/account/security');
  });

  it('two tabs renewing with the same token at once both succeed (grace window)', async () => {
    const user = await server().createUser();
    const first = await signIn(server(), user.email, user.password, true);
    // Several rounds: on PostgreSQL the second update often lands while the first transaction holds the row.
    for (let round = 0; round < 5; round += 1) {
      const fresh = await signIn(server(), user.email, user.password, true);
      const answers = await Promise.all(
        Array.from({ length: 4 }, () => validate(fresh.offline_token as string)),
      );
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    }
    expect((await validate(first.offline_token as string)).statusCode).toBe(200);
  });

  it('logout revokes the offline token on the server', async () => {
    const user = await server().createUser();
    const first = await signIn(server(), user.email, user.password, true);
    const logout = await server().app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      payload: { offlineToken: first.offline_token },
    });
    expect(logout.statusCode).toBe(204);
    expect((await validate(first.offline_token as string)).statusCode).toBe(401);
  });

  it('an offline token expires after 30 days', async () => {
    const user = await server().createUser();
    const first = await signIn(server(), user.email, user.password, true);
    server().clock.advance(30 * 86_400 + 1);
    const response = await validate(first.offline_token as string);
    expect(response.statusCode).toBe(401);
    expect(response.json().messageKey).toBe('SESSION_EXPIRED');
  });

  it('an unknown offline token is a 401 INVALID_TOKEN', async () => {
    const response = await validate('x'.repeat(43));
    expect(response.statusCode).toBe(401);
    expect(response.json().messageKey).toBe('INVALID_TOKEN');
  });
});
