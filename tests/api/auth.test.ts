import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { signIn } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

describeEachDatabase('sign-in', (server) => {
  const login = (payload: unknown, headers: Record<string, string> = {}) =>
    server().app.inject({ method: 'POST', url: '/api/auth/login', payload: payload as object, headers });

  it('bad JSON is a 400 INVALID_JSON', async () => {
    const response = await server().app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().messageKey).toBe('INVALID_JSON');
  });

  it('missing fields are a 400 VALIDATION_FAILED', async () => {
    const response = await login({ email: 'a@example.com' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ messageKey: 'VALIDATION_FAILED', message: expect.any(String) });
  });

  it('wrong types are a 400 VALIDATION_FAILED', async () => {
    const response = await login({ email: 42, password: ['x'], rememberMe: 'yes' });
    expect(response.statusCode).toBe(400);
    expect(response.json().messageKey).toBe('VALIDATION_FAILED');
  });

  it('a body that is not JSON is refused with a messageKey', async () => {
    const response = await server().app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'text/plain' },
      payload: 'email=a',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().messageKey).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('a wrong password and an unknown email get the same answer', async () => {
    const user = await server().createUser();
    const wrongPassword = await login({ email: user.email, password: 'not the password 1' });
    const unknownEmail = await login({ email: 'nobody-here@example.com', password: 'not the password 1' });
    expect(wrongPassword.statusCode).toBe(401);
    expect(unknownEmail.statusCode).toBe(401);
    expect(wrongPassword.json()).toEqual({ messageKey: 'WRONG_CREDENTIALS', message: 'Email or password is incorrect.' });
    expect(unknownEmail.json()).toEqual(wrongPassword.json());
  });

  it('the wrong-credentials error is translated', async () => {
    const response = await login({ email: 'nobody@example.com', password: 'x' }, { 'accept-language': 'de' });
    expect(response.json().message).toBe('E-Mail-Adresse oder Passwort ist falsch.');
  });

  it('an unverified account is refused with USER_NOT_VERIFIED after the right password only', async () => {
    const user = await server().createUser({ verified: false });
    const right = await login({ email: user.email, password: user.password });
    expect(right.statusCode).toBe(403);
    expect(right.json().messageKey).toBe('USER_NOT_VERIFIED');
    const wrong = await login({ email: user.email, password: 'wrong password 9' });
    expect(wrong.json().messageKey).toBe('WRONG_CREDENTIALS');
  });

  it('email is matched case-insensitively', async () => {
    const user = await server().createUser({ email: 'mixed.case@example.com' });
    const response = await login({ email: ' Mixed.Case@Example.com ', password: user.password });
    expect(response.statusCode).toBe(200);
  });

  it('issues an offline token only with remember me', async () => {
    const user = await server().createUser();
    const plain = await signIn(server(), user.email, user.password, false);
    expect(plain.access_token).toMatch(/^ey/);
    expect(plain.offline_token).toBeUndefined();
    const remembered = await signIn(server(), user.email, user.password, true);
    expect(remembered.offline_token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
  });

  it('the offline token is stored hashed, never as issued', async () => {
    const user = await server().createUser();
    const { offline_token } = await signIn(server(), user.email, user.password, true);
    const rows = await server().db.kysely.selectFrom('refresh_tokens').select('token_hash').where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(1);
    // Stored as its SHA-256 digest (64 hex characters), so the row proves the token without holding it.
    expect(rows[0]?.token_hash).toBe(createHash('sha256').update(offline_token as string).digest('hex'));
    expect(rows[0]?.token_hash).not.toContain(offline_token as string);
  });

  it('admin-login accepts admins and refuses users with NOT_AN_ADMIN', async () => {
    const admin = await server().createUser({ roles: ['user', 'admin'] });
    const user = await server().createUser();
    const ok = await server().app.inject({
      method: 'POST',
      url: '/api/auth/admin-login',
      payload: { email: admin.email, password: admin.password },
    });
    expect(ok.statusCode).toBe(200);
    expect(Object.keys(ok.json())).toEqual(['access_token']);
    const refused = await server().app.inject({
      method: 'POST',
      url: '/api/auth/admin-login',
      payload: { email: user.email, password: user.password },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().messageKey).toBe('NOT_AN_ADMIN');
  });
});

describeEachDatabase(
  'sign-in attempts per client address',
  (server) => {
    it('past the per-address limit a client is refused with 429 and a messageKey, other clients are not', async () => {
      const attempt = (remoteAddress: string, i: number) =>
        server().app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: `probe-${i}@example.com`, password: 'wrong password 1', rememberMe: false },
          remoteAddress,
        });
      for (let i = 0; i < 3; i += 1) expect((await attempt('10.77.0.1', i)).statusCode).toBe(401);
      const refused = await attempt('10.77.0.1', 3);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().messageKey).toBe('TOO_MANY_REQUESTS');
      expect((await attempt('10.77.0.2', 4)).statusCode).toBe(401);
    });
  },
  () => ({ rateLimitPerAddress: 3 }),
);
