import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GUESS_LIMITS } from '../../server/plugins/guess-limits.js';
import { startSandbox } from '../fixtures/paddle.js';
import { signIn, type TestServer } from '../fixtures/server.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * Issue 17: every guessable code is limited per client address and per account. Each route is tried
 * with wrong codes up to its limit; the next attempt, even with a right code, answers 429 with a
 * messageKey and Retry-After, and the count is shared through the database.
 */
let paddle: Awaited<ReturnType<typeof startSandbox>>;
beforeAll(async () => {
  paddle = await startSandbox();
});
afterAll(async () => {
  await paddle?.sandbox.close();
});

type Send = (attempt: number) => Promise<LightMyRequestResponse>;

/** `limit` wrong guesses are answered as such; the next is refused with 429 TOO_MANY_REQUESTS and Retry-After. */
async function expectLimit(send: Send, limit: number, language = 'en') {
  for (let attempt = 0; attempt < limit; attempt += 1) {
    const response = await send(attempt);
    expect(response.statusCode, `attempt ${attempt + 1}: ${response.body}`).not.toBe(429);
    expect(response.statusCode).toBeLessThan(500);
  }
  const refused = await send(limit);
  expect(refused.statusCode, refused.body).toBe(429);
  expect(refused.json().messageKey).toBe('TOO_MANY_REQUESTS');
  expect(refused.json().message).toMatch(language === 'de' ? /^Zu viele Versuche/ : /^Too many attempts/);
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  return refused;
}

describeEachDatabase(
  'limits on guessable codes',
  (server) => {
    const from = (address: string) => ({ remoteAddress: address });
    const as = (token: string) => ({ authorization: `Bearer ${token}` });

    it('discount code lookups (no sign-in) per address', async () => {
      await expectLimit(
        (i) => server().app.inject({ method: 'GET', url: `/api/perpetual/discount-object-by-code/?discountCode=GUESS${i}`, ...from('10.1.0.1') }),
        GUESS_LIMITS.discountCode.perAddress.limit,
      );
      // Another address is not affected.
      const elsewhere = await server().app.inject({ method: 'GET', url: '/api/perpetual/discount-object-by-code/?discountCode=WELCOME20', ...from('10.1.0.2') });
      expect(elsewhere.statusCode).toBe(200);
    });

    it('coupon redemption per account, whatever the address; and per address, whatever the account', async () => {
      const user = await server().createUser();
      const { access_token } = await signIn(server(), user.email, user.password);
      await expectLimit(
        (i) => server().app.inject({ method: 'POST', url: '/api/coupons/redeem', headers: { ...as(access_token), 'accept-language': 'de' }, payload: { code: `NOPE-${i}` }, ...from(`10.2.0.${i + 1}`) }),
        GUESS_LIMITS.coupon.perAccount.limit,
        'de',
      );
      let attempt = 0;
      await expectLimit(async () => {
        const someone = await server().createUser();
        const token = (await signIn(server(), someone.email, someone.password)).access_token;
        attempt += 1;
        return server().app.inject({ method: 'POST', url: '/api/coupons/redeem', headers: as(token), payload: { code: `NOPE-${attempt}` }, ...from('10.2.1.1') });
      }, GUESS_LIMITS.coupon.perAddress.limit);
    });

    it('Lite key redemption per account', async () => {
      const user = await server().createUser();
      const { access_token } = await signIn(server(), user.email, user.password);
      await expectLimit(
        (i) => server().app.inject({ method: 'POST', url: '/api/lite-keys/redeem', headers: as(access_token), payload: { code: `LITE-${i}` }, ...from(`10.3.0.${i + 1}`) }),
        GUESS_LIMITS.liteKey.perAccount.limit,
      );
    });

    it('verification codes and links per address', async () => {
      const user = await server().createUser({ verified: false });
      await expectLimit(
        (i) => server().app.inject({ method: 'POST', url: '/api/users/validate/code', payload: { email: `x${i}-${user.email}`, code: '123456' }, ...from('10.4.0.1') }),
        GUESS_LIMITS.signupCode.perAddress.limit,
      );
      await expectLimit(
        (i) => server().app.inject({ method: 'GET', url: `/api/users/validate/not-a-real-link-${String(i).padStart(4, '0')}`, ...from('10.4.0.2') }),
        GUESS_LIMITS.verificationLink.perAddress.limit,
      );
    });

    it('sign-up codes and email-change codes have a counter each (issue 44): one used up leaves the other', async () => {
      const address = '10.4.1.1';
      const changer = await server().createUser();
      const { access_token } = await signIn(server(), changer.email, changer.password);
      const asked = await server().app.inject({ method: 'POST', url: '/api/users/me/email', headers: as(access_token), payload: { email: `new-${changer.email}`, password: changer.password }, ...from(address) });
      expect(asked.statusCode, asked.body).toBe(200);
      const stranger = await server().createUser({ verified: false });
      await expectLimit(
        (i) => server().app.inject({ method: 'POST', url: '/api/users/validate/code', payload: { email: `y${i}-${stranger.email}`, code: '654321' }, ...from(address) }),
        GUESS_LIMITS.signupCode.perAddress.limit,
      );
      // The same address, now out of sign-up guesses, may still enter the code of its own address change.
      const confirm = await server().app.inject({ method: 'POST', url: '/api/users/me/email/confirm', headers: as(access_token), payload: { code: '000000' }, ...from(address) });
      expect(confirm.statusCode, confirm.body).toBe(400);
      expect(confirm.json().messageKey).toBe('INVALID_VERIFICATION_CODE');

      // And the other way round: email-change guesses from many accounts at one address leave sign-up codes alone.
      const other = '10.4.1.2';
      let attempt = 0;
      let current = '';
      await expectLimit(async () => {
        // A new account every 5 guesses: each change allows 5 wrong codes (and 10 entries) of its own.
        if (attempt % 5 === 0) {
          const someone = await server().createUser();
          const token = (await signIn(server(), someone.email, someone.password)).access_token;
          await server().app.inject({ method: 'POST', url: '/api/users/me/email', headers: as(token), payload: { email: `new-${someone.email}`, password: someone.password }, ...from(other) });
          current = token;
        }
        attempt += 1;
        return server().app.inject({ method: 'POST', url: '/api/users/me/email/confirm', headers: as(current), payload: { code: '000000' }, ...from(other) });
      }, GUESS_LIMITS.emailChangeCode.perAddress.limit);
      const signup = await server().app.inject({ method: 'POST', url: '/api/users/validate/code', payload: { email: stranger.email, code: '654321' }, ...from(other) });
      expect(signup.statusCode, signup.body).toBe(400);
      expect(signup.json().messageKey).toBe('INVALID_VERIFICATION_CODE');
    });

    it('guesses at the current password count once for every route that asks for it (issue 44)', async () => {
      const user = await server().createUser();
      const { access_token } = await signIn(server(), user.email, user.password);
      for (let i = 0; i < 10; i += 1) {
        const checked = await server().app.inject({ method: 'POST', url: '/api/users/checkOldPassword', headers: as(access_token), payload: { oldPassword: `guess ${i}` } });
        expect(checked.json()).toEqual({ result: false });
      }
      // Ten guesses spent on checking it: changing the password, the email or deleting the account cannot guess on.
      const attempts = [
        () => server().app.inject({ method: 'DELETE', url: '/api/users/me', headers: as(access_token), payload: { password: 'guess 10' } }),
        () => server().app.inject({ method: 'PATCH', url: '/api/users/password', headers: as(access_token), payload: { password: 'a new one 42', oldPassword: 'guess 11' } }),
        () => server().app.inject({ method: 'POST', url: '/api/users/me/email', headers: as(access_token), payload: { email: `new-${user.email}`, password: 'guess 12' } }),
        () => server().app.inject({ method: 'POST', url: '/api/users/checkOldPassword', headers: as(access_token), payload: { oldPassword: user.password } }),
      ];
      for (const attempt of attempts) {
        const refused = await attempt();
        expect(refused.statusCode, refused.body).toBe(429);
        expect(refused.json().messageKey).toBe('TOO_MANY_REQUESTS');
      }
    });

    it('reset links per address: checking an invalid one counts too', async () => {
      await expectLimit(
        (i) => server().app.inject({ method: 'GET', url: `/api/users/forget-password/check-token/guess-${i}-${'x'.repeat(20)}`, ...from('10.5.0.1') }),
        GUESS_LIMITS.resetLink.perAddress.limit,
      );
      await expectLimit(
        (i) =>
          server().app.inject({
            method: 'PATCH',
            url: '/api/users/forget-password/validate-token',
            payload: { passwordToken: `guess-${i}-${'y'.repeat(20)}`, newPassword: 'a new password 1' },
            ...from('10.5.0.2'),
          }),
        GUESS_LIMITS.resetLink.perAddress.limit,
      );
    });

    it('the desktop activation per account', async () => {
      const user = await server().createUser();
      const { access_token } = await signIn(server(), user.email, user.password);
      // Two seats on the free plan; every further computer is refused, and counted.
      for (const computerId of ['pc-a', 'pc-b']) {
        expect((await server().app.inject({ method: 'POST', url: '/api/desktop/activate', headers: as(access_token), payload: { computerId, name: computerId } })).statusCode).toBe(200);
      }
      await expectLimit(
        (i) => server().app.inject({ method: 'POST', url: '/api/desktop/activate', headers: as(access_token), payload: { computerId: `pc-${i}-x`, name: 'PC' }, ...from(`10.6.0.${i + 1}`) }),
        GUESS_LIMITS.activation.perAccount.limit,
      );
    });
  },
  () => ({ billing: paddle.billing, rateLimitPerAddress: 10_000 }),
);

export type { TestServer };
