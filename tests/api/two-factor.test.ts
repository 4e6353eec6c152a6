import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SocialConfig } from '../../server/config.js';
import { startSocialStandins } from '../../server/modules/oauth/standins/index.js';
import { runDesktopCommand } from '../../tools/desktop-commands.js';
import { DATABASE_KINDS, signIn, someClientAddress, startTestServer, type TestServer } from '../fixtures/server.js';
import { walkProvider } from '../fixtures/social.js';
import { readUntil } from '../fixtures/sse.js';
import { answer, call, challengeFor, codeAt, enrolTotp, mailsTo, passwordStep, tokenOf } from '../fixtures/two-factor.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * Issue 44: an authenticator app (TOTP, RFC 6238) with recovery codes as a second factor, and sign-in in
 * two steps for the accounts that have one. Codes are computed here with otpauth at the server's clock,
 * which the tests move. The per-address request limit is lifted so the guess limits are what is tested.
 */
const LIFTED = () => ({ rateLimitPerAddress: 100_000 });

async function userWithTotp(server: TestServer, roles?: ('user' | 'admin')[]) {
  const user = await server.createUser(roles ? { roles } : {});
  const token = await tokenOf(server, user);
  const totp = await enrolTotp(server, token);
  return { ...user, token, ...totp };
}

async function sessionOf(server: TestServer, accessToken: string) {
  const sid = JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString()) as { sid: string };
  return server.db.kysely.selectFrom('sessions').select(['method', 'remember', 'second_factor']).where('id', '=', sid.sid).executeTakeFirstOrThrow();
}

describeEachDatabase(
  'Two-factor: enrolling an authenticator app',
  (server) => {
    it('a secret for the app (SHA-1, 6 digits, 30 s, issuer Shapelab, the email as label), confirmed by a code, gives ten recovery codes once', async () => {
      const user = await server().createUser();
      const token = await tokenOf(server(), user);
      expect((await call(server(), 'GET', '/api/users/me/two-factor', { token })).json()).toEqual({ totp: false, passkeys: 0, recoveryCodesLeft: 0 });

      const setup = await call(server(), 'POST', '/api/users/me/two-factor/totp', { token });
      expect(setup.statusCode).toBe(200);
      const { secret, otpauthUri } = setup.json<{ secret: string; otpauthUri: string }>();
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      const uri = new URL(otpauthUri);
      expect(uri.protocol).toBe('otpauth:');
      expect(uri.host).toBe('totp');
      expect(decodeURIComponent(uri.pathname)).toBe(`/Shapelab:${user.email}`);
      expect(Object.fromEntries(uri.searchParams)).toMatchObject({ issuer: 'Shapelab', secret, algorithm: 'SHA1', digits: '6', period: '30' });
      // Pending: nothing changes until a code confirms it.
      expect((await call(server(), 'GET', '/api/users/me', { token })).json()).toMatchObject({ twoFactorEnabled: false, twoFactorEnrolmentRequired: false });
      expect((await passwordStep(server(), user)).access_token).toBeDefined();

      const wrong = await call(server(), 'POST', '/api/users/me/two-factor/totp/confirm', { token, payload: { code: codeAt(secret, server().clock.now(), 3) } });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().messageKey).toBe('INVALID_TWO_FACTOR_CODE');

      // Spaces between the digits, as people type them, are forgiven.
      const code = codeAt(secret, server().clock.now());
      const confirmed = await call(server(), 'POST', '/api/users/me/two-factor/totp/confirm', { token, payload: { code: `${code.slice(0, 3)} ${code.slice(3)}` } });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      const { recoveryCodes } = confirmed.json<{ recoveryCodes: string[] }>();
      expect(recoveryCodes).toHaveLength(10);
      expect(new Set(recoveryCodes).size).toBe(10);
      for (const recoveryCode of recoveryCodes) expect(recoveryCode).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
      // Kept only as digests.
      const stored = await server().db.kysely.selectFrom('recovery_codes').select('code_hash').where('user_id', '=', user.id).execute();
      expect(stored.map((row) => row.code_hash).some((hash) => recoveryCodes.some((plain) => hash.includes(plain.replace('-', ''))))).toBe(false);

      expect((await call(server(), 'GET', '/api/users/me/two-factor', { token })).json()).toEqual({ totp: true, passkeys: 0, recoveryCodesLeft: 10 });
      expect((await call(server(), 'GET', '/api/users/me', { token })).json()).toMatchObject({ twoFactorEnabled: true });
      const again = await call(server(), 'POST', '/api/users/me/two-factor/totp', { token });
      expect(again.statusCode).toBe(409);
      expect(again.json().messageKey).toBe('TWO_FACTOR_ALREADY_ENABLED');
      expect((await mailsTo(server(), user.email)).map((mail) => mail.subject)).toContain('Two-step sign-in is on for your Shapelab account');
    });

    it('confirming without a setup is refused; a new setup replaces the pending secret, whose codes then fail', async () => {
      const user = await server().createUser();
      const token = await tokenOf(server(), user);
      const early = await call(server(), 'POST', '/api/users/me/two-factor/totp/confirm', { token, payload: { code: '123456' } });
      expect(early.statusCode).toBe(409);
      expect(early.json().messageKey).toBe('TWO_FACTOR_SETUP_NOT_STARTED');
      const first = (await call(server(), 'POST', '/api/users/me/two-factor/totp', { token })).json<{ secret: string }>().secret;
      const second = (await call(server(), 'POST', '/api/users/me/two-factor/totp', { token })).json<{ secret: string }>().secret;
      expect(second).not.toBe(first);
      const stale = await call(server(), 'POST', '/api/users/me/two-factor/totp/confirm', { token, payload: { code: codeAt(first, server().clock.now()) } });
      expect(stale.json().messageKey).toBe('INVALID_TWO_FACTOR_CODE');
      const fresh = await call(server(), 'POST', '/api/users/me/two-factor/totp/confirm', { token, payload: { code: codeAt(second, server().clock.now()) } });
      expect(fresh.statusCode).toBe(200);
    });

    it('wrong confirmation codes are limited per account (any address) and answered 429 with Retry-After', async () => {
      const user = await server().createUser();
      const token = await tokenOf(server(), user);
      const { secret } = (await call(server(), 'POST', '/api/users/me/two-factor/totp', { token })).json<{ secret: string }>();
      const wrongCode = codeAt(secret, server().clock.now(), 5);
      for (let i = 0; i < 10; i += 1) {
        expect((await call(server(), 'POST', '/api/users/me/two-factor/totp/confirm', { token, payload: { code: wrongCode } })).statusCode).toBe(400);
      }
      const limited = await call(server(), 'POST', '/api/users/me/two-factor/totp/confirm', { token, payload: { code: codeAt(secret, server().clock.now()) } });
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      server().clock.advance(15 * 60);
      expect((await call(server(), 'POST', '/api/users/me/two-factor/totp/confirm', { token, payload: { code: codeAt(secret, server().clock.now()) } })).statusCode).toBe(200);
    });

    it('two confirmations at once: one turns the app on and gets the codes, the other is refused', async () => {
      const user = await server().createUser();
      const token = await tokenOf(server(), user);
      const { secret } = (await call(server(), 'POST', '/api/users/me/two-factor/totp', { token })).json<{ secret: string }>();
      const code = codeAt(secret, server().clock.now());
      const both = await Promise.all([0, 1].map(() => call(server(), 'POST', '/api/users/me/two-factor/totp/confirm', { token, payload: { code } })));
      expect(both.map((response) => response.statusCode).sort()).toEqual([200, 409]);
      expect(await server().db.kysely.selectFrom('recovery_codes').select('id').where('user_id', '=', user.id).execute()).toHaveLength(10);
    });
  },
  LIFTED,
);

describeEachDatabase(
  'Two-factor: signing in in two steps',
  (server) => {
    it('the password step answers a challenge and no token; a current code finishes it, named in the session and the timeline', async () => {
      const user = await userWithTotp(server());
      const first = await passwordStep(server(), user);
      expect(first).toEqual({ twoFactorRequired: true, challenge: expect.any(String), methods: ['totp', 'recovery'] });
      const done = await answer(server(), first.challenge as string, { code: codeAt(user.secret, server().clock.now()) });
      expect(done.statusCode, done.body).toBe(200);
      expect(Object.keys(done.json()).sort()).toEqual(['access_token']);
      const token = done.json<{ access_token: string }>().access_token;
      expect((await call(server(), 'GET', '/api/users/me', { token })).json()).toMatchObject({ email: user.email, twoFactorEnabled: true });
      expect(await sessionOf(server(), token)).toEqual({ method: 'password', remember: 0, second_factor: 'totp' });
      const admin = await server().createUser({ roles: ['user', 'admin'] });
      const adminToken = (await signIn(server(), admin.email, admin.password)).access_token;
      const timeline = (await call(server(), 'GET', `/api/users/${user.id}/activity`, { token: adminToken })).json<{ data: { kind: string; details: Record<string, unknown> }[] }>();
      expect(timeline.data[0]).toMatchObject({ kind: 'session.signed_in', details: { method: 'password', secondFactor: 'totp' } });
      expect(timeline.data.map((entry) => entry.kind)).toContain('two_factor.enabled');
    });

    it('"remember me" of the first step gives the offline token at the second, and it renews', async () => {
      const user = await userWithTotp(server());
      const challenge = await challengeFor(server(), user, { rememberMe: true });
      const done = await answer(server(), challenge, { code: codeAt(user.secret, server().clock.now()) });
      expect(done.statusCode).toBe(200);
      const tokens = done.json<{ access_token: string; offline_token: string }>();
      expect(tokens.offline_token).toEqual(expect.any(String));
      expect(await sessionOf(server(), tokens.access_token)).toMatchObject({ remember: 1, second_factor: 'totp' });
      const renewed = await call(server(), 'POST', '/api/auth/validate', { payload: { offlineToken: tokens.offline_token } });
      expect(renewed.statusCode).toBe(200);
    });

    it('a wrong password never reveals that the account has a second factor', async () => {
      const user = await userWithTotp(server());
      const wrong = await call(server(), 'POST', '/api/auth/login', { payload: { email: user.email, password: 'not the password 1', rememberMe: false } });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toEqual({ messageKey: 'WRONG_CREDENTIALS', message: expect.any(String) });
    });

    it('a code is accepted once: the same code at a second sign-in is refused (replay)', async () => {
      const user = await userWithTotp(server());
      const code = codeAt(user.secret, server().clock.now());
      expect((await answer(server(), await challengeFor(server(), user), { code })).statusCode).toBe(200);
      const replay = await answer(server(), await challengeFor(server(), user), { code });
      expect(replay.statusCode).toBe(401);
      expect(replay.json().messageKey).toBe('INVALID_TWO_FACTOR_CODE');
    });

    it('codes of one step either side of now are accepted, two steps away are not', async () => {
      const user = await userWithTotp(server());
      server().clock.advance(10 * 30);
      const now = server().clock.now();
      // Two steps away first, while no later step has been used: refused by the window, not by the replay rule.
      for (const steps of [-2, 2]) {
        const refused = await answer(server(), await challengeFor(server(), user), { code: codeAt(user.secret, now, steps) });
        expect(refused.json().messageKey, `${steps} steps`).toBe('INVALID_TWO_FACTOR_CODE');
      }
      for (const steps of [-1, 1]) {
        const accepted = await answer(server(), await challengeFor(server(), user), { code: codeAt(user.secret, now, steps) });
        expect(accepted.statusCode, `${steps} steps`).toBe(200);
      }
      // The step after the last used one is used too: the current code (an earlier step) is now refused.
      expect((await answer(server(), await challengeFor(server(), user), { code: codeAt(user.secret, now) })).statusCode).toBe(401);
    });

    it('a recovery code signs in once (typed in capitals with spaces too) and counts down', async () => {
      const user = await userWithTotp(server());
      const [firstCode, secondCode] = user.recoveryCodes;
      const done = await answer(server(), await challengeFor(server(), user), { recoveryCode: String(firstCode) });
      expect(done.statusCode).toBe(200);
      expect(await sessionOf(server(), done.json<{ access_token: string }>().access_token)).toMatchObject({ second_factor: 'recovery' });
      const again = await answer(server(), await challengeFor(server(), user), { recoveryCode: String(firstCode) });
      expect(again.json().messageKey).toBe('INVALID_TWO_FACTOR_CODE');
      const typed = ` ${String(secondCode).toUpperCase().replace('-', ' - ')} `;
      expect((await answer(server(), await challengeFor(server(), user), { recoveryCode: typed })).statusCode).toBe(200);
      expect((await call(server(), 'GET', '/api/users/me/two-factor', { token: user.token })).json()).toMatchObject({ recoveryCodesLeft: 8 });
      // Another account's code is no answer.
      const other = await userWithTotp(server());
      expect((await answer(server(), await challengeFor(server(), user), { recoveryCode: String(other.recoveryCodes[0]) })).statusCode).toBe(401);
    });

    it('a challenge lives five minutes', async () => {
      const user = await userWithTotp(server());
      const challenge = await challengeFor(server(), user);
      server().clock.advance(5 * 60 + 1);
      const late = await answer(server(), challenge, { code: codeAt(user.secret, server().clock.now()) });
      expect(late.statusCode).toBe(401);
      expect(late.json().messageKey).toBe('TWO_FACTOR_CHALLENGE_EXPIRED');
      const unknown = await answer(server(), 'no-such-challenge', { code: '123456' });
      expect(unknown.json().messageKey).toBe('TWO_FACTOR_CHALLENGE_EXPIRED');
    });

    it('a challenge is used once', async () => {
      const user = await userWithTotp(server());
      const challenge = await challengeFor(server(), user);
      expect((await answer(server(), challenge, { code: codeAt(user.secret, server().clock.now()) })).statusCode).toBe(200);
      server().clock.advance(30);
      const reused = await answer(server(), challenge, { code: codeAt(user.secret, server().clock.now()) });
      expect(reused.statusCode).toBe(401);
      expect(reused.json().messageKey).toBe('TWO_FACTOR_CHALLENGE_EXPIRED');
    });

    it('five wrong answers end a challenge: the right code after them is refused', async () => {
      const user = await userWithTotp(server());
      const challenge = await challengeFor(server(), user);
      const wrong = codeAt(user.secret, server().clock.now(), 4);
      for (let i = 0; i < 5; i += 1) expect((await answer(server(), challenge, { code: wrong })).json().messageKey).toBe('INVALID_TWO_FACTOR_CODE');
      const right = await answer(server(), challenge, { code: codeAt(user.secret, server().clock.now()) });
      expect(right.statusCode).toBe(401);
      expect(right.json().messageKey).toBe('TWO_FACTOR_CHALLENGE_EXPIRED');
    });

    it('wrong answers are limited per account from any address: after ten, 429 with Retry-After even for the right code', async () => {
      const user = await userWithTotp(server());
      const wrong = codeAt(user.secret, server().clock.now(), 4);
      let challenge = '';
      for (let i = 0; i < 10; i += 1) {
        // A new challenge every 4 answers (each allows 5), each answer from a new address.
        if (i % 4 === 0) challenge = await challengeFor(server(), user);
        expect((await answer(server(), challenge, { code: wrong })).statusCode).toBe(401);
      }
      const limited = await answer(server(), await challengeFor(server(), user), { code: codeAt(user.secret, server().clock.now()) });
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      server().clock.advance(15 * 60);
      expect((await answer(server(), await challengeFor(server(), user), { code: codeAt(user.secret, server().clock.now()) })).statusCode).toBe(200);
    });

    it('wrong answers are limited per address across accounts', async () => {
      const address = someClientAddress();
      for (let i = 0; i < 30; i += 1) expect((await answer(server(), `guess-${i}`, { code: '000000' }, address)).statusCode).toBe(401);
      const limited = await answer(server(), 'guess-31', { code: '000000' }, address);
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('two answers at once with the same code, on one challenge or on two: exactly one signs in', async () => {
      const user = await userWithTotp(server());
      const code = codeAt(user.secret, server().clock.now());
      const challenge = await challengeFor(server(), user);
      const onOne = await Promise.all([0, 1].map(() => answer(server(), challenge, { code })));
      expect(onOne.map((response) => response.statusCode).sort()).toEqual([200, 401]);

      server().clock.advance(30);
      const next = codeAt(user.secret, server().clock.now());
      const challenges = [await challengeFor(server(), user), await challengeFor(server(), user)];
      const onTwo = await Promise.all(challenges.map((each) => answer(server(), each, { code: next })));
      expect(onTwo.map((response) => response.statusCode).sort()).toEqual([200, 401]);
    });

    it('two answers at once with the same recovery code on two challenges: exactly one signs in', async () => {
      const user = await userWithTotp(server());
      const challenges = [await challengeFor(server(), user), await challengeFor(server(), user)];
      const both = await Promise.all(challenges.map((each) => answer(server(), each, { recoveryCode: String(user.recoveryCodes[0]) })));
      expect(both.map((response) => response.statusCode).sort()).toEqual([200, 401]);
      expect((await call(server(), 'GET', '/api/users/me/two-factor', { token: user.token })).json()).toMatchObject({ recoveryCodesLeft: 9 });
    });

    it('the admin door asks for the second factor too and starts an admin session (never remembered)', async () => {
      const admin = await userWithTotp(server(), ['user', 'admin']);
      const first = await passwordStep(server(), admin, { admin: true });
      expect(first).toMatchObject({ twoFactorRequired: true, methods: ['totp', 'recovery'] });
      const done = await answer(server(), first.challenge as string, { code: codeAt(admin.secret, server().clock.now()) });
      expect(done.statusCode).toBe(200);
      expect(Object.keys(done.json())).toEqual(['access_token']);
      const token = done.json<{ access_token: string }>().access_token;
      expect(await sessionOf(server(), token)).toEqual({ method: 'admin', remember: 0, second_factor: 'totp' });
      expect((await call(server(), 'GET', '/api/users', { token })).statusCode).toBe(200);
      // The first step still refuses a non-admin before any challenge.
      const user = await userWithTotp(server());
      const refused = await call(server(), 'POST', '/api/auth/admin-login', { payload: { email: user.email, password: user.password } });
      expect(refused.json().messageKey).toBe('NOT_AN_ADMIN');
    });

    it('a password changed between the steps ends the sign-in begun with the old one', async () => {
      const user = await userWithTotp(server());
      const challenge = await challengeFor(server(), user);
      server().clock.advance(1);
      const changed = await call(server(), 'PATCH', '/api/users/password', { token: user.token, payload: { oldPassword: user.password, password: 'a brand new secret 7' } });
      expect(changed.statusCode, changed.body).toBe(200);
      const late = await answer(server(), challenge, { code: codeAt(user.secret, server().clock.now()) });
      expect([late.statusCode, late.json().messageKey]).toEqual([401, 'TWO_FACTOR_CHALLENGE_EXPIRED']);
      const fresh = await challengeFor(server(), { email: user.email, password: 'a brand new secret 7' });
      expect((await answer(server(), fresh, { code: codeAt(user.secret, server().clock.now()) })).statusCode).toBe(200);
    });

    it('an admin demoted between the steps is refused at the admin door', async () => {
      const admin = await userWithTotp(server(), ['user', 'admin']);
      const challenge = await challengeFor(server(), admin, { admin: true });
      await server().db.kysely.deleteFrom('user_roles').where('user_id', '=', admin.id).where('role', '=', 'admin').execute();
      const refused = await answer(server(), challenge, { code: codeAt(admin.secret, server().clock.now()) });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().messageKey).toBe('NOT_AN_ADMIN');
    });
  },
  LIFTED,
);

// Google and Facebook through their stand-ins, as tests/api/oauth.test.ts drives them.
const APP_URL = 'http://localhost:3000';
let social: SocialConfig;
let closeStandins: () => Promise<void>;
beforeAll(async () => {
  const standins = await startSocialStandins({ appUrl: APP_URL, host: '127.0.0.1' });
  social = standins.social;
  closeStandins = standins.close;
});
afterAll(async () => {
  await closeStandins?.();
});

async function socialSignIn(server: TestServer, provider: 'google' | 'facebook', who: { email: string; name: string; emailVerified: boolean }) {
  const redirectUrl = `${APP_URL}/${provider}/redirect`;
  const started = await call(server, 'GET', `/api/auth/${provider}/login?redirectUrl=${encodeURIComponent(redirectUrl)}`);
  const back = await walkProvider(started.json<{ authorizeUrl: string }>().authorizeUrl, who, APP_URL);
  return call(server, 'POST', `/api/auth/${provider}/redirect`, {
    payload: { code: back.get('code'), state: back.get('state'), iss: back.get('iss') ?? undefined, redirectUrl },
  });
}

describeEachDatabase(
  'Two-factor: Google and Facebook sign-in through the second step',
  (server) => {
    for (const provider of ['google', 'facebook'] as const) {
      it(`${provider}: a new account has no factor; once it has one, the provider's sign-in asks for it and starts a ${provider} session`, async () => {
        const who = { email: `social-${randomBytes(4).toString('hex')}@example.com`, name: 'Ada Lovelace', emailVerified: true };
        const created = await socialSignIn(server(), provider, who);
        expect(created.json()).toMatchObject({ access_token: expect.any(String), isNewUser: true });
        const { secret } = await enrolTotp(server(), created.json<{ access_token: string }>().access_token);

        const again = await socialSignIn(server(), provider, who);
        expect(again.statusCode).toBe(200);
        const first = again.json<{ twoFactorRequired: true; challenge: string; methods: string[]; access_token?: string }>();
        expect(first).toEqual({ twoFactorRequired: true, challenge: expect.any(String), methods: ['totp', 'recovery'] });
        const done = await answer(server(), first.challenge, { code: codeAt(secret, server().clock.now()) });
        expect(done.statusCode, done.body).toBe(200);
        expect(Object.keys(done.json())).toEqual(['access_token']);
        expect(await sessionOf(server(), done.json<{ access_token: string }>().access_token)).toEqual({ method: provider, remember: 0, second_factor: 'totp' });
      });
    }
  },
  () => ({ appUrl: APP_URL, social, rateLimitPerAddress: 100_000 }),
);

describeEachDatabase(
  'Two-factor: turning it off and new recovery codes need the owner',
  (server) => {
    it('DELETE needs the password; it turns the app and the codes off, mails the owner, and the next sign-in is one step', async () => {
      const user = await userWithTotp(server());
      for (const payload of [undefined, { password: 'not it at all' }]) {
        const refused = await call(server(), 'DELETE', '/api/users/me/two-factor', { token: user.token, ...(payload ? { payload } : {}) });
        expect(refused.statusCode).toBe(403);
        expect(refused.json().messageKey).toBe('WRONG_PASSWORD');
      }
      // A code is no substitute for the password of an account that has one.
      const byCode = await call(server(), 'DELETE', '/api/users/me/two-factor', { token: user.token, payload: { code: codeAt(user.secret, server().clock.now()) } });
      expect(byCode.json().messageKey).toBe('WRONG_PASSWORD');
      const off = await call(server(), 'DELETE', '/api/users/me/two-factor', { token: user.token, payload: { password: user.password } });
      expect(off.statusCode).toBe(204);
      expect((await call(server(), 'GET', '/api/users/me/two-factor', { token: user.token })).json()).toEqual({ totp: false, passkeys: 0, recoveryCodesLeft: 0 });
      expect((await call(server(), 'GET', '/api/users/me', { token: user.token })).json()).toMatchObject({ twoFactorEnabled: false });
      expect((await passwordStep(server(), user)).access_token).toEqual(expect.any(String));
      expect((await mailsTo(server(), user.email)).map((mail) => mail.subject)).toContain('Two-step sign-in with an authenticator app was turned off');
      const twice = await call(server(), 'DELETE', '/api/users/me/two-factor', { token: user.token, payload: { password: user.password } });
      expect(twice.statusCode).toBe(409);
      expect(twice.json().messageKey).toBe('TWO_FACTOR_NOT_ENABLED');
    });

    it('new recovery codes need the password; the old set stops working, the new one signs in', async () => {
      const user = await userWithTotp(server());
      const refused = await call(server(), 'POST', '/api/users/me/two-factor/recovery-codes', { token: user.token, payload: { password: 'wrong password 9' } });
      expect(refused.json().messageKey).toBe('WRONG_PASSWORD');
      const renewed = await call(server(), 'POST', '/api/users/me/two-factor/recovery-codes', { token: user.token, payload: { password: user.password } });
      expect(renewed.statusCode).toBe(200);
      const fresh = renewed.json<{ recoveryCodes: string[] }>().recoveryCodes;
      expect(fresh).toHaveLength(10);
      expect((await answer(server(), await challengeFor(server(), user), { recoveryCode: String(user.recoveryCodes[1]) })).statusCode).toBe(401);
      expect((await answer(server(), await challengeFor(server(), user), { recoveryCode: String(fresh[1]) })).statusCode).toBe(200);
    });

    it('an account without a second factor has no recovery codes to renew', async () => {
      const user = await server().createUser();
      const token = await tokenOf(server(), user);
      const refused = await call(server(), 'POST', '/api/users/me/two-factor/recovery-codes', { token, payload: { password: user.password } });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().messageKey).toBe('TWO_FACTOR_NOT_ENABLED');
    });

    it('an account without a password proves itself by a current code or a sign-in within 10 minutes', async () => {
      const user = await userWithTotp(server());
      await server().db.kysely.updateTable('users').set({ password_hash: null }).where('id', '=', user.id).execute();
      // Signed in (by userWithTotp) within the last 10 minutes: nothing more is asked.
      expect((await call(server(), 'POST', '/api/users/me/two-factor/recovery-codes', { token: user.token, payload: {} })).statusCode).toBe(200);
      server().clock.advance(11 * 60);
      const stale = await call(server(), 'POST', '/api/users/me/two-factor/recovery-codes', { token: user.token, payload: {} });
      expect(stale.statusCode).toBe(403);
      expect(stale.json().messageKey).toBe('REAUTHENTICATION_REQUIRED');
      const wrongCode = await call(server(), 'DELETE', '/api/users/me/two-factor', { token: user.token, payload: { code: codeAt(user.secret, server().clock.now(), 5) } });
      expect(wrongCode.statusCode).toBe(400);
      expect(wrongCode.json().messageKey).toBe('INVALID_TWO_FACTOR_CODE');
      const byCode = await call(server(), 'DELETE', '/api/users/me/two-factor', { token: user.token, payload: { code: codeAt(user.secret, server().clock.now()) } });
      expect(byCode.statusCode).toBe(204);
    });
  },
  LIFTED,
);

describeEachDatabase(
  'Two-factor: an admin resets a user’s second factor',
  (server) => {
    it('removes the app, the codes and open challenges; audited, in the timeline, mailed in the user’s language', async () => {
      const admin = await server().createUser({ roles: ['user', 'admin'] });
      const adminToken = await tokenOf(server(), admin);
      const user = await userWithTotp(server());
      await server().db.kysely.updateTable('users').set({ language: 'de' }).where('id', '=', user.id).execute();
      const pending = await challengeFor(server(), user);
      const shown = async () => (await call(server(), 'GET', `/api/users/${user.id}`, { token: adminToken })).json<{ signInMethods: { twoFactor: boolean } }>().signInMethods.twoFactor;
      expect(await shown()).toBe(true);

      const reset = await call(server(), 'DELETE', `/api/users/${user.id}/two-factor`, { token: adminToken });
      expect(reset.statusCode, reset.body).toBe(204);
      expect(await shown()).toBe(false);
      expect((await call(server(), 'GET', '/api/users/me/two-factor', { token: user.token })).json()).toEqual({ totp: false, passkeys: 0, recoveryCodesLeft: 0 });
      expect((await answer(server(), pending, { code: codeAt(user.secret, server().clock.now()) })).json().messageKey).toBe('TWO_FACTOR_CHALLENGE_EXPIRED');
      expect((await passwordStep(server(), user)).access_token).toEqual(expect.any(String));

      const audit = (await call(server(), 'GET', `/api/users/${user.id}/audit`, { token: adminToken })).json<{ action: string; actorId: string; actorEmail: string }[]>();
      expect(audit[0]).toMatchObject({ action: 'two_factor.reset', actorId: admin.id, actorEmail: admin.email });
      const timeline = (await call(server(), 'GET', `/api/users/${user.id}/activity`, { token: adminToken })).json<{ data: { kind: string; actorId: string | null; details: object }[] }>();
      expect(timeline.data.find((entry) => entry.kind === 'two_factor.reset')).toMatchObject({ actorId: admin.id, details: { totp: true, passkeys: 0 } });
      const mail = (await mailsTo(server(), user.email)).find((each) => each.subject === 'Der Shapelab-Support hat den zweiten Faktor deines Kontos entfernt');
      expect(mail?.text).toContain('http://localhost:3000/de/account/security');
    });

    it('refuses an unknown user, the admin themselves, a user without a second factor, and anyone but an admin', async () => {
      const admin = await userWithTotp(server(), ['user', 'admin']);
      const adminToken = (await answer(server(), await challengeFor(server(), admin), { code: codeAt(admin.secret, server().clock.now()) })).json<{ access_token: string }>().access_token;
      const missing = await call(server(), 'DELETE', '/api/users/00000000-0000-4000-8000-000000000000/two-factor', { token: adminToken });
      expect([missing.statusCode, missing.json().messageKey]).toEqual([404, 'USER_NOT_FOUND']);
      const self = await call(server(), 'DELETE', `/api/users/${admin.id}/two-factor`, { token: adminToken });
      expect([self.statusCode, self.json().messageKey]).toEqual([409, 'CANNOT_MODIFY_SELF']);
      const plain = await server().createUser();
      const none = await call(server(), 'DELETE', `/api/users/${plain.id}/two-factor`, { token: adminToken });
      expect([none.statusCode, none.json().messageKey]).toEqual([409, 'TWO_FACTOR_NOT_ENABLED']);
      const user = await userWithTotp(server());
      const notAdmin = await call(server(), 'DELETE', `/api/users/${admin.id}/two-factor`, { token: user.token });
      expect([notAdmin.statusCode, notAdmin.json().messageKey]).toEqual([403, 'FORBIDDEN']);
      expect((await call(server(), 'GET', '/api/users/me/two-factor', { token: user.token })).json()).toMatchObject({ totp: true });
    });
  },
  LIFTED,
);

for (const kind of DATABASE_KINDS) {
  describe(`Two-factor: staff must enrol when STAFF_TWO_FACTOR=required [${kind}]`, () => {
    let server: TestServer;
    let base: string;
    beforeAll(async () => {
      server = await startTestServer(kind, { staffTwoFactor: 'required', rateLimitPerAddress: 100_000 });
      await server.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await server?.close();
    });

    it('a staff member without one signs in, but only the enrolment routes answer until a factor is set up', async () => {
      const admin = await server.createUser({ roles: ['user', 'admin'] });
      const login = await call(server, 'POST', '/api/auth/admin-login', { payload: { email: admin.email, password: admin.password } });
      expect(login.statusCode).toBe(200);
      const token = login.json<{ access_token: string }>().access_token;

      expect((await call(server, 'GET', '/api/users/me', { token })).json()).toMatchObject({ twoFactorEnabled: false, twoFactorEnrolmentRequired: true });
      for (const [method, url] of [
        ['GET', '/api/users'],
        ['GET', '/api/users/me/sessions'],
        ['GET', '/api/users/me/overview'],
        ['PATCH', '/api/users/me'],
        ['GET', `/api/users/${admin.id}`],
      ] as const) {
        const refused = await call(server, method, url, { token, ...(method === 'PATCH' ? { payload: { firstName: 'X' } } : {}) });
        expect([refused.statusCode, refused.json().messageKey], `${method} ${url}`).toEqual([403, 'TWO_FACTOR_ENROLMENT_REQUIRED']);
      }
      // What enrolling needs answers, and so does the event stream.
      expect((await call(server, 'GET', '/api/users/me/two-factor', { token })).statusCode).toBe(200);
      expect((await call(server, 'GET', '/api/users/me/passkeys', { token })).statusCode).toBe(200);
      expect((await call(server, 'POST', '/api/users/me/passkeys/registration', { token })).statusCode).toBe(200);
      const stream = await fetch(`${base}/api/events`, { headers: { authorization: `Bearer ${token}` } });
      expect(stream.status).toBe(200);
      expect(await readUntil(stream, /: connected/)).toContain(': connected');

      await enrolTotp(server, token);
      expect((await call(server, 'GET', '/api/users/me', { token })).json()).toMatchObject({ twoFactorEnabled: true, twoFactorEnrolmentRequired: false });
      expect((await call(server, 'GET', '/api/users', { token })).statusCode).toBe(200);
    });

    it('renewal and sign-out work while enrolment is required; users who are not staff are not held', async () => {
      const admin = await server.createUser({ roles: ['user', 'admin'] });
      const remembered = await call(server, 'POST', '/api/auth/login', { payload: { email: admin.email, password: admin.password, rememberMe: true } });
      const tokens = remembered.json<{ access_token: string; offline_token: string }>();
      const renewed = await call(server, 'POST', '/api/auth/validate', { payload: { offlineToken: tokens.offline_token } });
      expect(renewed.statusCode).toBe(200);
      const out = await call(server, 'POST', '/api/auth/logout', { token: tokens.access_token, payload: {} });
      expect(out.statusCode).toBe(204);
      expect((await call(server, 'GET', '/api/users/me', { token: tokens.access_token })).statusCode).toBe(401);

      const user = await server.createUser();
      const userToken = await tokenOf(server, user);
      expect((await call(server, 'GET', '/api/users/me/sessions', { token: userToken })).statusCode).toBe(200);
      expect((await call(server, 'GET', '/api/users/me', { token: userToken })).json()).toMatchObject({ twoFactorEnrolmentRequired: false });
    });

    it('a staff member whose last factor is reset is held to enrolment again', async () => {
      const admin = await userWithTotp(server, ['user', 'admin']);
      expect((await call(server, 'GET', '/api/users', { token: admin.token })).statusCode).toBe(200);
      const other = await userWithTotp(server, ['user', 'admin']);
      expect((await call(server, 'DELETE', `/api/users/${admin.id}/two-factor`, { token: other.token })).statusCode).toBe(204);
      const held = await call(server, 'GET', '/api/users', { token: admin.token });
      expect([held.statusCode, held.json().messageKey]).toEqual([403, 'TWO_FACTOR_ENROLMENT_REQUIRED']);
    });

    it('the desktop client finishes a two-step sign-in with --code or --recovery-code, and names the methods without one', async () => {
      const user = await userWithTotp(server);
      const dir = mkdtempSync(path.join(os.tmpdir(), 'desktop-2fa-'));
      const desktop = (args: string[]) => runDesktopCommand(['--api', `${base}/api`, '--state', path.join(dir, 'pc.json'), ...args]);
      try {
        const bare = await desktop(['login', '--email', user.email, '--password', user.password]);
        expect(bare.code).toBe(1);
        expect(bare.stderr).toContain('--code');
        expect(bare.stderr).toContain('totp, recovery');
        const withCode = await desktop(['login', '--email', user.email, '--password', user.password, '--code', codeAt(user.secret, server.clock.now())]);
        expect(withCode, withCode.stderr).toMatchObject({ code: 0, stdout: '{"signedIn":true}\n' });
        const saved = JSON.parse(readFileSync(path.join(dir, 'pc.json'), 'utf8')) as { accessToken: string };
        expect((await call(server, 'GET', '/api/users/me', { token: saved.accessToken })).json()).toMatchObject({ email: user.email });
        const wrong = await desktop(['login', '--email', user.email, '--password', user.password, '--code', codeAt(user.secret, server.clock.now(), 5)]);
        expect(wrong.code).toBe(1);
        expect(JSON.parse(wrong.stderr.trim().split('\n').pop() ?? '{}')).toMatchObject({ messageKey: 'INVALID_TWO_FACTOR_CODE' });
        const withRecovery = await desktop(['login', '--email', user.email, '--password', user.password, '--recovery-code', String(user.recoveryCodes[0])]);
        expect(withRecovery.code, withRecovery.stderr).toBe(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
