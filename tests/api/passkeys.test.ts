import { expect, it } from 'vitest';
import type { TestServer } from '../fixtures/server.js';
import { answer, call, challengeFor, codeAt, enrolTotp, mailsTo, passwordStep, tokenOf } from '../fixtures/two-factor.js';
import { SoftwareAuthenticator } from '../fixtures/webauthn.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * Issue 44: passkeys (WebAuthn, verified with @simplewebauthn/server) added, listed, renamed and removed
 * by their owner, used as the second step of a sign-in, and signing in alone. The browser and its
 * authenticator are tests/fixtures/webauthn.ts: an ES256 key per credential, attestation "none". The
 * portal's relying party is APP_URL (http://localhost:3000): RP ID "localhost", that origin.
 */
const ORIGIN = 'http://localhost:3000';
type Json = Record<string, unknown>;

async function registrationOptions(server: TestServer, token: string): Promise<Json> {
  const response = await call(server, 'POST', '/api/users/me/passkeys/registration', { token });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ options: Json }>().options;
}

function register(server: TestServer, token: string, name: string, credential: Json) {
  return call(server, 'POST', '/api/users/me/passkeys', { token, payload: { name, response: credential } });
}

/** A user with one passkey on their own authenticator. */
async function userWithPasskey(server: TestServer, roles?: ('user' | 'admin')[]) {
  const user = await server.createUser(roles ? { roles } : {});
  const token = await tokenOf(server, user);
  const authenticator = new SoftwareAuthenticator(ORIGIN);
  const added = await register(server, token, 'Laptop', authenticator.register(await registrationOptions(server, token)));
  expect(added.statusCode, added.body).toBe(200);
  return { ...user, token, authenticator, passkeyId: added.json<{ id: string }>().id };
}

async function signInOptions(server: TestServer): Promise<{ ceremony: string; options: Json }> {
  const response = await call(server, 'POST', '/api/auth/passkey/options');
  expect(response.statusCode).toBe(200);
  return response.json();
}

function passkeySignIn(server: TestServer, ceremony: string, credential: Json, extra: { rememberMe?: boolean; admin?: boolean } = {}) {
  return call(server, 'POST', '/api/auth/passkey', { payload: { ceremony, response: credential, ...extra } });
}

async function sessionOf(server: TestServer, accessToken: string) {
  const sid = JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString()) as { sid: string };
  return server.db.kysely.selectFrom('sessions').select(['method', 'remember', 'second_factor']).where('id', '=', sid.sid).executeTakeFirstOrThrow();
}

describeEachDatabase(
  'Passkeys: adding, listing, renaming, removing',
  (server) => {
    it('registration options ask for a discoverable credential of this RP; the answer adds a named passkey, a second factor', async () => {
      const user = await server().createUser();
      const token = await tokenOf(server(), user);
      const options = await registrationOptions(server(), token);
      expect(options).toMatchObject({
        rp: { id: 'localhost', name: 'Shapelab' },
        user: { name: user.email, id: Buffer.from(user.id).toString('base64url') },
        attestation: 'none',
        excludeCredentials: [],
        authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'preferred' },
      });
      const authenticator = new SoftwareAuthenticator(ORIGIN);
      const added = await register(server(), token, '  Work laptop ', authenticator.register(options));
      expect(added.statusCode, added.body).toBe(200);
      expect(added.json()).toEqual({ id: expect.any(String), name: 'Work laptop', createdAt: server().clock.now().toISOString(), lastUsedAt: null });
      expect((await call(server(), 'GET', '/api/users/me/passkeys', { token })).json()).toEqual([added.json()]);
      expect((await call(server(), 'GET', '/api/users/me/two-factor', { token })).json()).toEqual({ totp: false, passkeys: 1, recoveryCodesLeft: 0 });
      expect((await call(server(), 'GET', '/api/users/me', { token })).json()).toMatchObject({ twoFactorEnabled: true });
      expect((await mailsTo(server(), user.email)).map((mail) => mail.subject)).toContain('A passkey was added to your Shapelab account');
      // The next options exclude it, so the browser does not offer to add the same one twice.
      expect((await registrationOptions(server(), token)).excludeCredentials).toEqual([{ id: authenticator.credentialIds[0], type: 'public-key', transports: ['internal'] }]);
    });

    it('an answer from another origin or for another RP ID is refused', async () => {
      const user = await server().createUser();
      const token = await tokenOf(server(), user);
      const authenticator = new SoftwareAuthenticator(ORIGIN);
      for (const bend of [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }]) {
        const refused = await register(server(), token, 'Key', authenticator.register(await registrationOptions(server(), token), bend));
        expect([refused.statusCode, refused.json().messageKey], JSON.stringify(bend)).toEqual([400, 'PASSKEY_VERIFICATION_FAILED']);
      }
      expect((await call(server(), 'GET', '/api/users/me/passkeys', { token })).json()).toEqual([]);
    });

    it('a registration ceremony answers once, for five minutes, for its account, and a newer one replaces it', async () => {
      const user = await server().createUser();
      const token = await tokenOf(server(), user);
      const authenticator = new SoftwareAuthenticator(ORIGIN);
      const credential = authenticator.register(await registrationOptions(server(), token));
      expect((await register(server(), token, 'Key', credential)).statusCode).toBe(200);
      const replayed = await register(server(), token, 'Key again', credential);
      expect([replayed.statusCode, replayed.json().messageKey]).toEqual([400, 'PASSKEY_CEREMONY_EXPIRED']);

      const late = authenticator.register(await registrationOptions(server(), token));
      server().clock.advance(5 * 60 + 1);
      expect((await register(server(), token, 'Late', late)).json().messageKey).toBe('PASSKEY_CEREMONY_EXPIRED');

      const older = authenticator.register(await registrationOptions(server(), token));
      await registrationOptions(server(), token);
      expect((await register(server(), token, 'Older', older)).json().messageKey).toBe('PASSKEY_CEREMONY_EXPIRED');

      // Another account's options are no ceremony of this one.
      const other = await server().createUser();
      const otherToken = await tokenOf(server(), other);
      const foreign = authenticator.register(await registrationOptions(server(), otherToken));
      expect((await register(server(), token, 'Foreign', foreign)).json().messageKey).toBe('PASSKEY_CEREMONY_EXPIRED');
    });

    it('a credential is one account’s only: registering it again, here or for another account, is refused', async () => {
      const owner = await userWithPasskey(server());
      const credentialId = owner.authenticator.credentialIds[0] as string;
      const twice = await register(server(), owner.token, 'Again', owner.authenticator.register(await registrationOptions(server(), owner.token), { credentialId }));
      expect([twice.statusCode, twice.json().messageKey]).toEqual([409, 'PASSKEY_ALREADY_REGISTERED']);
      const other = await server().createUser();
      const otherToken = await tokenOf(server(), other);
      const stolen = await register(server(), otherToken, 'Mine now', owner.authenticator.register(await registrationOptions(server(), otherToken), { credentialId }));
      expect([stolen.statusCode, stolen.json().messageKey]).toEqual([409, 'PASSKEY_ALREADY_REGISTERED']);
      expect((await call(server(), 'GET', '/api/users/me/passkeys', { token: otherToken })).json()).toEqual([]);
    });

    it('renaming and removing work on the owner’s passkeys only; removing needs the password and mails the owner', async () => {
      const owner = await userWithPasskey(server());
      const other = await userWithPasskey(server());
      const renamed = await call(server(), 'PATCH', `/api/users/me/passkeys/${owner.passkeyId}`, { token: owner.token, payload: { name: 'Phone' } });
      expect(renamed.json()).toMatchObject({ id: owner.passkeyId, name: 'Phone' });
      const foreignRename = await call(server(), 'PATCH', `/api/users/me/passkeys/${owner.passkeyId}`, { token: other.token, payload: { name: 'Mine' } });
      expect([foreignRename.statusCode, foreignRename.json().messageKey]).toEqual([404, 'PASSKEY_NOT_FOUND']);
      const foreignRemove = await call(server(), 'DELETE', `/api/users/me/passkeys/${owner.passkeyId}`, { token: other.token, payload: { password: other.password } });
      expect([foreignRemove.statusCode, foreignRemove.json().messageKey]).toEqual([404, 'PASSKEY_NOT_FOUND']);
      const noProof = await call(server(), 'DELETE', `/api/users/me/passkeys/${owner.passkeyId}`, { token: owner.token, payload: { password: 'not the password' } });
      expect([noProof.statusCode, noProof.json().messageKey]).toEqual([403, 'WRONG_PASSWORD']);

      const removed = await call(server(), 'DELETE', `/api/users/me/passkeys/${owner.passkeyId}`, { token: owner.token, payload: { password: owner.password } });
      expect(removed.statusCode).toBe(204);
      expect((await call(server(), 'GET', '/api/users/me/passkeys', { token: owner.token })).json()).toEqual([]);
      expect((await call(server(), 'GET', '/api/users/me', { token: owner.token })).json()).toMatchObject({ twoFactorEnabled: false });
      expect((await mailsTo(server(), owner.email)).map((mail) => mail.subject)).toContain('A passkey was removed from your Shapelab account');
      // Gone: it signs in no more.
      const { ceremony, options } = await signInOptions(server());
      expect((await passkeySignIn(server(), ceremony, owner.authenticator.assert(options))).json().messageKey).toBe('PASSKEY_VERIFICATION_FAILED');
    });

    it('an account whose email is not verified cannot add a passkey', async () => {
      const user = await server().createUser();
      const token = await tokenOf(server(), user);
      await server().db.kysely.updateTable('users').set({ email_verified_at: null }).where('id', '=', user.id).execute();
      const refused = await call(server(), 'POST', '/api/users/me/passkeys/registration', { token });
      expect([refused.statusCode, refused.json().messageKey]).toEqual([403, 'USER_NOT_VERIFIED']);
    });
  },
  () => ({ rateLimitPerAddress: 100_000 }),
);

describeEachDatabase(
  'Passkeys: signing in with a passkey alone',
  (server) => {
    it('discoverable options (no credentials named, user verification required); the answer signs in and marks the passkey used', async () => {
      const user = await userWithPasskey(server());
      const { ceremony, options } = await signInOptions(server());
      expect(options).toMatchObject({ rpId: 'localhost', userVerification: 'required', challenge: expect.any(String) });
      expect(options.allowCredentials).toBeUndefined();
      server().clock.advance(60);
      const done = await passkeySignIn(server(), ceremony, user.authenticator.assert(options), { rememberMe: true });
      expect(done.statusCode, done.body).toBe(200);
      const tokens = done.json<{ access_token: string; offline_token?: string }>();
      expect(tokens.offline_token).toEqual(expect.any(String));
      expect((await call(server(), 'GET', '/api/users/me', { token: tokens.access_token })).json()).toMatchObject({ email: user.email });
      expect(await sessionOf(server(), tokens.access_token)).toEqual({ method: 'passkey', remember: 1, second_factor: null });
      expect((await call(server(), 'GET', '/api/users/me/passkeys', { token: user.token })).json()).toEqual([
        expect.objectContaining({ id: user.passkeyId, lastUsedAt: server().clock.now().toISOString() }),
      ]);
    });

    it('a ceremony is used once and lives five minutes', async () => {
      const user = await userWithPasskey(server());
      const { ceremony, options } = await signInOptions(server());
      const credential = user.authenticator.assert(options);
      expect((await passkeySignIn(server(), ceremony, credential)).statusCode).toBe(200);
      const replayed = await passkeySignIn(server(), ceremony, credential);
      expect([replayed.statusCode, replayed.json().messageKey]).toEqual([401, 'PASSKEY_CEREMONY_EXPIRED']);
      const late = await signInOptions(server());
      server().clock.advance(5 * 60 + 1);
      expect((await passkeySignIn(server(), late.ceremony, user.authenticator.assert(late.options))).json().messageKey).toBe('PASSKEY_CEREMONY_EXPIRED');
      // An answer signed for another ceremony's challenge is no answer to this one.
      const first = await signInOptions(server());
      const second = await signInOptions(server());
      const crossed = await passkeySignIn(server(), second.ceremony, user.authenticator.assert(first.options));
      expect([crossed.statusCode, crossed.json().messageKey]).toEqual([401, 'PASSKEY_VERIFICATION_FAILED']);
    });

    it('refused: another origin, another RP ID, no user verification, a user handle that is not the passkey’s', async () => {
      const user = await userWithPasskey(server());
      const other = await userWithPasskey(server());
      for (const bend of [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }, { userVerified: false }]) {
        const { ceremony, options } = await signInOptions(server());
        const refused = await passkeySignIn(server(), ceremony, user.authenticator.assert(options, bend));
        expect([refused.statusCode, refused.json().messageKey], JSON.stringify(bend)).toEqual([401, 'PASSKEY_VERIFICATION_FAILED']);
      }
      const { ceremony, options } = await signInOptions(server());
      const credential = user.authenticator.assert(options);
      const claimed = { ...credential, response: { ...(credential.response as Json), userHandle: Buffer.from(other.id).toString('base64url') } };
      expect((await passkeySignIn(server(), ceremony, claimed)).json().messageKey).toBe('PASSKEY_VERIFICATION_FAILED');
    });

    it('a signature counter that goes backwards (a cloned authenticator) is refused; one that stays 0 is not', async () => {
      const user = await userWithPasskey(server());
      const first = await signInOptions(server());
      expect((await passkeySignIn(server(), first.ceremony, user.authenticator.assert(first.options, { counter: 7 }))).statusCode).toBe(200);
      for (const counter of [3, 7]) {
        const { ceremony, options } = await signInOptions(server());
        const cloned = await passkeySignIn(server(), ceremony, user.authenticator.assert(options, { counter }));
        expect([cloned.statusCode, cloned.json().messageKey], `counter ${counter}`).toEqual([401, 'PASSKEY_VERIFICATION_FAILED']);
      }
      const next = await signInOptions(server());
      expect((await passkeySignIn(server(), next.ceremony, user.authenticator.assert(next.options, { counter: 8 }))).statusCode).toBe(200);

      // Synced passkeys report no counter (always 0): nothing to compare, each use is fine.
      const synced = await server().createUser();
      const token = await tokenOf(server(), synced);
      const authenticator = new SoftwareAuthenticator(ORIGIN);
      await register(server(), token, 'Synced', authenticator.register(await registrationOptions(server(), token)));
      for (let i = 0; i < 2; i += 1) {
        const { ceremony, options } = await signInOptions(server());
        expect((await passkeySignIn(server(), ceremony, authenticator.assert(options, { counter: 0 }))).statusCode).toBe(200);
      }
    });

    it('the admin door: staff only, an admin session never remembered', async () => {
      const admin = await userWithPasskey(server(), ['user', 'admin']);
      const { ceremony, options } = await signInOptions(server());
      const done = await passkeySignIn(server(), ceremony, admin.authenticator.assert(options), { admin: true, rememberMe: true });
      expect(done.statusCode).toBe(200);
      expect(Object.keys(done.json())).toEqual(['access_token']);
      expect(await sessionOf(server(), done.json<{ access_token: string }>().access_token)).toEqual({ method: 'admin', remember: 0, second_factor: 'passkey' });
      const user = await userWithPasskey(server());
      const again = await signInOptions(server());
      const refused = await passkeySignIn(server(), again.ceremony, user.authenticator.assert(again.options), { admin: true });
      expect([refused.statusCode, refused.json().messageKey]).toEqual([403, 'NOT_AN_ADMIN']);
    });
  },
  () => ({ rateLimitPerAddress: 100_000 }),
);

describeEachDatabase(
  'Passkeys: the second step of a sign-in',
  (server) => {
    async function passkeyOptionsFor(challenge: string) {
      return call(server(), 'POST', '/api/auth/login/two-factor/passkey', { payload: { challenge } });
    }

    it('the password step names the method; options allow the account’s passkeys; the answer signs in', async () => {
      const user = await userWithPasskey(server());
      const first = await passwordStep(server(), user);
      expect(first).toEqual({ twoFactorRequired: true, challenge: expect.any(String), methods: ['passkey'] });
      const options = await passkeyOptionsFor(first.challenge as string);
      expect(options.statusCode).toBe(200);
      expect(options.json().options).toMatchObject({ rpId: 'localhost', allowCredentials: [{ id: user.authenticator.credentialIds[0], type: 'public-key' }] });
      const done = await answer(server(), first.challenge as string, { passkey: user.authenticator.assert(options.json().options) });
      expect(done.statusCode, done.body).toBe(200);
      expect(await sessionOf(server(), done.json<{ access_token: string }>().access_token)).toEqual({ method: 'password', remember: 0, second_factor: 'passkey' });
    });

    it('refused: another account’s passkey, an answer without options asked, another origin; each is a wrong answer', async () => {
      const user = await userWithPasskey(server());
      const other = await userWithPasskey(server());
      const challenge = await challengeFor(server(), user);
      const unasked = await answer(server(), challenge, { passkey: user.authenticator.assert({ rpId: 'localhost', challenge: 'Zm9yZ2Vk' }) });
      expect([unasked.statusCode, unasked.json().messageKey]).toEqual([401, 'INVALID_TWO_FACTOR_CODE']);
      const options = (await passkeyOptionsFor(challenge)).json<{ options: Json }>().options;
      // The other account's authenticator signs this challenge with its own credential.
      const foreign = other.authenticator.assert({ ...options, allowCredentials: undefined });
      expect((await answer(server(), challenge, { passkey: foreign })).json().messageKey).toBe('INVALID_TWO_FACTOR_CODE');
      expect((await answer(server(), challenge, { passkey: user.authenticator.assert(options, { origin: 'https://evil.example' }) })).json().messageKey).toBe(
        'INVALID_TWO_FACTOR_CODE',
      );
      // Three wrong answers used three of the challenge's tries; the right one still signs in.
      expect((await answer(server(), challenge, { passkey: user.authenticator.assert(options) })).statusCode).toBe(200);
    });

    it('an account with an authenticator app and no passkey has none to offer; a passkey and an app both count', async () => {
      const user = await server().createUser();
      const token = await tokenOf(server(), user);
      const { secret } = await enrolTotp(server(), token);
      const challenge = await challengeFor(server(), user);
      const none = await passkeyOptionsFor(challenge);
      expect([none.statusCode, none.json().messageKey]).toEqual([404, 'PASSKEY_NOT_FOUND']);
      const authenticator = new SoftwareAuthenticator(ORIGIN);
      await register(server(), token, 'Key', authenticator.register(await registrationOptions(server(), token)));
      expect((await passwordStep(server(), user)).methods).toEqual(['totp', 'recovery', 'passkey']);
      // Removing the passkey leaves the app on; turning the app off too leaves no second factor.
      const passkeyId = (await call(server(), 'GET', '/api/users/me/passkeys', { token })).json<{ id: string }[]>()[0]?.id;
      await call(server(), 'DELETE', `/api/users/me/passkeys/${passkeyId}`, { token, payload: { password: user.password } });
      expect((await call(server(), 'GET', '/api/users/me', { token })).json()).toMatchObject({ twoFactorEnabled: true });
      expect((await answer(server(), await challengeFor(server(), user), { code: codeAt(secret, server().clock.now()) })).statusCode).toBe(200);
    });

    it('an admin reset removes the passkeys too', async () => {
      const user = await userWithPasskey(server());
      const admin = await server().createUser({ roles: ['user', 'admin'] });
      const adminToken = await tokenOf(server(), admin);
      expect((await call(server(), 'DELETE', `/api/users/${user.id}/two-factor`, { token: adminToken })).statusCode).toBe(204);
      expect((await call(server(), 'GET', '/api/users/me/passkeys', { token: user.token })).json()).toEqual([]);
      expect((await passwordStep(server(), user)).access_token).toEqual(expect.any(String));
      const { ceremony, options } = await signInOptions(server());
      expect((await passkeySignIn(server(), ceremony, user.authenticator.assert(options))).json().messageKey).toBe('PASSKEY_VERIFICATION_FAILED');
    });
  },
  () => ({ rateLimitPerAddress: 100_000 }),
);
