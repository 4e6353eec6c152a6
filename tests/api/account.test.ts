import { expect, it } from 'vitest';
import { signIn, someClientAddress, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

const call = (server: TestServer, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, token?: string) =>
  server.app.inject({
    method,
    url,
    payload,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    remoteAddress: someClientAddress(),
  });

async function resetLinkToken(server: TestServer, email: string): Promise<string> {
  const mails = (await call(server, 'GET', `/api/dev/outbox?to=${encodeURIComponent(email)}`)).json<{ subject: string; text: string }[]>();
  const mail = mails.find((m) => m.subject === 'Reset your Shapelab password');
  return /\/forgot-password\/validate\/([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1] ?? '';
}

describeEachDatabase('forgot password', (server) => {
  it('answers alike whether or not the account exists, and mails a link only to a real account', async () => {
    const user = await server().createUser();
    const known = await call(server(), 'GET', `/api/users/forget-password/${user.email}`);
    const unknown = await call(server(), 'GET', '/api/users/forget-password/nobody-at-all@example.com');
    expect([known.statusCode, known.body]).toEqual([unknown.statusCode, unknown.body]);
    expect(known.json()).toEqual({ ok: true });
    expect(await resetLinkToken(server(), user.email)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await call(server(), 'GET', '/api/dev/outbox?to=nobody-at-all@example.com')).json()).toEqual([]);
  });

  it('the link sets a new password once: the new one works, the old one does not, sessions end', async () => {
    const user = await server().createUser();
    const session = await signIn(server(), user.email, user.password, true);
    await call(server(), 'GET', `/api/users/forget-password/${user.email}`);
    const token = await resetLinkToken(server(), user.email);
    expect((await call(server(), 'GET', `/api/users/forget-password/check-token/${token}`)).json()).toEqual({ valid: true });
    server().clock.advance(1);
    const reset = await call(server(), 'PATCH', '/api/users/forget-password/validate-token', { passwordToken: token, newPassword: 'brand new 2026' });
    expect(reset.statusCode).toBe(200);

    expect((await call(server(), 'POST', '/api/auth/login', { email: user.email, password: user.password })).statusCode).toBe(401);
    expect((await call(server(), 'POST', '/api/auth/login', { email: user.email, password: 'brand new 2026' })).statusCode).toBe(200);
    expect((await call(server(), 'GET', '/api/users/me', undefined, session.access_token)).json().messageKey).toBe('SESSION_EXPIRED');
    expect((await call(server(), 'POST', '/api/auth/validate', { offlineToken: session.offline_token })).statusCode).toBe(401);

    const again = await call(server(), 'PATCH', '/api/users/forget-password/validate-token', { passwordToken: token, newPassword: 'another one 7' });
    expect(again.json().messageKey).toBe('INVALID_PASSWORD_TOKEN');
    expect((await call(server(), 'GET', `/api/users/forget-password/check-token/${token}`)).json()).toEqual({ valid: false });
  });

  it('a link is valid for one hour at most, and refuses a weak password', async () => {
    const user = await server().createUser();
    await call(server(), 'GET', `/api/users/forget-password/${user.email}`);
    const token = await resetLinkToken(server(), user.email);
    const weak = await call(server(), 'PATCH', '/api/users/forget-password/validate-token', { passwordToken: token, newPassword: 'password' });
    expect(weak.json().messageKey).toBe('PASSWORD_TOO_WEAK');
    server().clock.advance(3601);
    const late = await call(server(), 'PATCH', '/api/users/forget-password/validate-token', { passwordToken: token, newPassword: 'late but strong 1' });
    expect(late.json().messageKey).toBe('INVALID_PASSWORD_TOKEN');
  });

  it('a reset refuses a password from the common-password list, in the reader’s language, and the link still works (issue 44)', async () => {
    const user = await server().createUser();
    await call(server(), 'GET', `/api/users/forget-password/${user.email}`);
    const token = await resetLinkToken(server(), user.email);
    for (const [newPassword, language] of [['password1', 'en'], ['P@ssw0rd1', 'de'], ['michelle1', 'en']] as const) {
      const common = await server().app.inject({
        method: 'PATCH',
        url: '/api/users/forget-password/validate-token',
        payload: { passwordToken: token, newPassword },
        headers: { 'accept-language': language },
        remoteAddress: someClientAddress(),
      });
      expect(common.statusCode, newPassword).toBe(400);
      expect(common.json()).toEqual({
        messageKey: 'PASSWORD_TOO_COMMON',
        message: language === 'de' ? 'Dieses Passwort ist zu verbreitet und leicht zu erraten. Bitte wähle ein anderes.' : 'This password is too common and easy to guess. Please choose another one.',
      });
    }
    const reset = await call(server(), 'PATCH', '/api/users/forget-password/validate-token', { passwordToken: token, newPassword: 'brand new 2026' });
    expect(reset.statusCode, reset.body).toBe(200);
  });

  it('requests for one address are refused with 429 after five an hour', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await call(server(), 'GET', '/api/users/forget-password/flood@example.com')).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

describeEachDatabase('password change and profile', (server) => {
  it('checkOldPassword tells the signed-in user whether their current password is right', async () => {
    const user = await server().createUser();
    const { access_token } = await signIn(server(), user.email, user.password);
    expect((await call(server(), 'POST', '/api/users/checkOldPassword', { oldPassword: user.password }, access_token)).json()).toEqual({ result: true });
    expect((await call(server(), 'POST', '/api/users/checkOldPassword', { oldPassword: 'nope nope 1' }, access_token)).json()).toEqual({ result: false });
  });

  it('a password change needs the old password, keeps this session and ends every other one', async () => {
    const user = await server().createUser();
    const here = await signIn(server(), user.email, user.password, true);
    const elsewhere = await signIn(server(), user.email, user.password, true);
    const wrong = await call(server(), 'PATCH', '/api/users/password', { password: 'new secret 99', oldPassword: 'wrong one 1' }, here.access_token);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().messageKey).toBe('WRONG_OLD_PASSWORD');

    server().clock.advance(1);
    const changed = await call(
      server(),
      'PATCH',
      '/api/users/password',
      { password: 'new secret 99', oldPassword: user.password, offlineToken: here.offline_token },
      here.access_token,
    );
    expect(changed.statusCode).toBe(200);
    const body = changed.json<{ access_token: string; offline_token: string }>();
    expect((await call(server(), 'GET', '/api/users/me', undefined, body.access_token)).statusCode).toBe(200);
    expect((await call(server(), 'POST', '/api/auth/validate', { offlineToken: body.offline_token })).statusCode).toBe(200);
    expect((await call(server(), 'GET', '/api/users/me', undefined, elsewhere.access_token)).statusCode).toBe(401);
    expect((await call(server(), 'POST', '/api/auth/validate', { offlineToken: elsewhere.offline_token })).statusCode).toBe(401);
    expect((await call(server(), 'POST', '/api/auth/login', { email: user.email, password: 'new secret 99' })).statusCode).toBe(200);
  });

  it('a password change refuses a common password (and a weak one), and the old password stays (issue 44)', async () => {
    const user = await server().createUser();
    const { access_token } = await signIn(server(), user.email, user.password);
    for (const [password, messageKey] of [['qwerty123', 'PASSWORD_TOO_COMMON'], ['Password1', 'PASSWORD_TOO_COMMON'], ['1drowssap', 'PASSWORD_TOO_COMMON'], ['password', 'PASSWORD_TOO_WEAK']]) {
      const refused = await call(server(), 'PATCH', '/api/users/password', { password, oldPassword: user.password }, access_token);
      expect(refused.statusCode, password).toBe(400);
      expect(refused.json().messageKey, password).toBe(messageKey);
    }
    expect((await call(server(), 'GET', '/api/users/me', undefined, access_token)).statusCode).toBe(200);
    expect((await call(server(), 'POST', '/api/auth/login', { email: user.email, password: user.password })).statusCode).toBe(200);
  });

  it('PATCH /users/me changes the profile fields the user owns and nothing else', async () => {
    const user = await server().createUser();
    const { access_token } = await signIn(server(), user.email, user.password);
    const ok = await call(server(), 'PATCH', '/api/users/me', { firstName: 'Grace', phone: '+49 30 1234567', newsletter: true, language: 'de' }, access_token);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ firstName: 'Grace', lastName: 'User', phone: '+49 30 1234567', newsletter: true, language: 'de' });

    for (const forbidden of [{ roles: ['admin'] }, { emailVerified: false }, { email: 'other@example.com' }, { id: 'someone-else' }]) {
      const refused = await call(server(), 'PATCH', '/api/users/me', forbidden, access_token);
      expect(refused.statusCode, JSON.stringify(forbidden)).toBe(400);
    }
    const me = (await call(server(), 'GET', '/api/users/me', undefined, access_token)).json();
    expect(me).toMatchObject({ roles: ['user'], emailVerified: true, email: user.email });
  });

  it('an invalid phone number is refused with PHONE_NUMBER_INVALID in en and de', async () => {
    const user = await server().createUser();
    const { access_token } = await signIn(server(), user.email, user.password);
    const en = await call(server(), 'PATCH', '/api/users/me', { phone: '12345' }, access_token);
    expect(en.statusCode).toBe(400);
    expect(en.json().messageKey).toBe('PHONE_NUMBER_INVALID');
    const de = await server().app.inject({
      method: 'PATCH',
      url: '/api/users/me',
      payload: { phone: 'call me' },
      headers: { authorization: `Bearer ${access_token}`, 'accept-language': 'de' },
    });
    expect(de.json().message).toMatch(/^Die Telefonnummer ist ungültig/);
  });

  it('the country is an ISO 3166 code; an unknown one is refused with REGION_NOT_FOUND in en and de', async () => {
    const user = await server().createUser();
    const { access_token } = await signIn(server(), user.email, user.password);
    const ok = await call(server(), 'PATCH', '/api/users/me', { country: 'at' }, access_token);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().country).toBe('AT');
    const en = await call(server(), 'PATCH', '/api/users/me', { country: 'XY', firstName: 'Lost' }, access_token);
    expect(en.statusCode).toBe(400);
    expect(en.json()).toEqual({ messageKey: 'REGION_NOT_FOUND', message: 'The selected country or region does not exist.' });
    const de = await server().app.inject({
      method: 'PATCH',
      url: '/api/users/me',
      payload: { country: 'Atlantis' },
      headers: { authorization: `Bearer ${access_token}`, 'accept-language': 'de' },
    });
    expect(de.json().message).toBe('Das gewählte Land oder die Region existiert nicht.');
    // A refused change changes nothing, not even the valid fields sent with it.
    const me = (await call(server(), 'GET', '/api/users/me', undefined, access_token)).json();
    expect(me).toMatchObject({ country: 'AT', firstName: 'Test' });
    const cleared = await call(server(), 'PATCH', '/api/users/me', { country: null }, access_token);
    expect(cleared.json().country).toBeNull();
  });

  it('a coupon code entered on the profile is kept on the account until coupons are redeemed', async () => {
    const user = await server().createUser();
    const { access_token } = await signIn(server(), user.email, user.password);
    const saved = await call(server(), 'PATCH', '/api/users/me', { couponCode: '  SIGGRAPH-2023 ' }, access_token);
    expect(saved.json().couponCode).toBe('SIGGRAPH-2023');
    const other = await server().createUser();
    const otherSession = await signIn(server(), other.email, other.password);
    const theirs = (await call(server(), 'GET', '/api/users/me', undefined, otherSession.access_token)).json();
    expect(theirs.couponCode).toBeNull();
  });
});

/** A sign-in as seen behind the trusted proxy (127.0.0.1): the client is whoever X-Forwarded-For names. */
const signInFrom = (server: TestServer, address: string, email: string, password: string) =>
  server.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': address } });

describeEachDatabase(
  'sign-in throttling (OWASP: per account and address, per address, a growing delay per account)',
  (server) => {
    it('ten wrong passwords from one address lock that address out of that account only: the owner signs in from theirs', async () => {
      const user = await server().createUser();
      for (let i = 0; i < 10; i += 1) expect((await signInFrom(server(), '203.0.113.5', user.email, `wrong ${i}x`)).statusCode).toBe(401);
      const locked = await signInFrom(server(), '203.0.113.5', user.email, user.password);
      expect(locked.statusCode).toBe(429);
      expect(locked.json().messageKey).toBe('TOO_MANY_REQUESTS');
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
      // The owner, from their own computer.
      expect((await signInFrom(server(), '198.51.100.7', user.email, user.password)).statusCode).toBe(200);
      // An unknown account is throttled exactly the same way.
      for (let i = 0; i < 10; i += 1) await signInFrom(server(), '203.0.113.5', 'ghost@example.com', `x ${i}1`);
      expect((await signInFrom(server(), '203.0.113.5', 'ghost@example.com', 'x 1')).statusCode).toBe(429);
      server().clock.advance(15 * 60 + 1);
      expect((await signInFrom(server(), '203.0.113.5', user.email, user.password)).statusCode).toBe(200);
    });

    it('a slow attack spread over many addresses meets a growing delay, never a lock', async () => {
      const user = await server().createUser();
      const timings: number[] = [];
      for (let i = 0; i < 13; i += 1) {
        const started = performance.now();
        const response = await signInFrom(server(), `192.0.2.${10 + i}`, user.email, `guess ${i}x`);
        timings.push(performance.now() - started);
        expect(response.statusCode).toBe(401);
      }
      // From the eleventh failure on, each attempt waits first: 100 ms, 200 ms, 400 ms...
      expect(timings[12]).toBeGreaterThanOrEqual(350);
      const owner = await signInFrom(server(), '198.51.100.99', user.email, user.password);
      expect(owner.statusCode).toBe(200);
    });

    it('one address guessing at many accounts is locked out of all of them', async () => {
      for (let i = 0; i < 50; i += 1) await signInFrom(server(), '203.0.113.77', `nobody-${i}@example.com`, 'guess 1x');
      const user = await server().createUser();
      const refused = await signInFrom(server(), '203.0.113.77', user.email, user.password);
      expect(refused.statusCode).toBe(429);
      expect((await signInFrom(server(), '203.0.113.78', user.email, user.password)).statusCode).toBe(200);
    });
  },
  // The per-minute request limit per address is another test's; here only the sign-in failure counts bind.
  () => ({ trustProxy: ['127.0.0.1'], rateLimitPerAddress: 1000 }),
);
