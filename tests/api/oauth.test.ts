import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SocialConfig } from '../../server/config.js';
import { loadConfig } from '../../server/config.js';
import { startSocialStandins } from '../../server/modules/oauth/standins/index.js';
import type { TestIdentity } from '../../server/modules/oauth/standins/pages.js';
import { signIn, someClientAddress, type TestServer } from '../fixtures/server.js';
import { walkProvider } from '../fixtures/social.js';
import { describeEachDatabase } from './describe-each-database.js';

/**
 * Google and Facebook through the real redirect flow: openid-client in the server, the oidc-provider
 * stand-in for Google and the OAuth 2 stand-in for Facebook on local ports, the provider's sign-in page
 * submitted like a browser would.
 */
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

type Provider = 'google' | 'facebook';
const identity = (overrides: Partial<TestIdentity> = {}): TestIdentity => ({
  email: `social-${randomBytes(4).toString('hex')}@example.com`,
  name: 'Ada Lovelace',
  emailVerified: true,
  ...overrides,
});

function call(server: TestServer, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, token?: string) {
  return server.app.inject({
    method,
    url,
    payload,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    remoteAddress: someClientAddress(),
  });
}

/** Asks the portal for an authorize URL, goes through the provider as `who`, and returns what came back. */
async function authorizeAs(server: TestServer, provider: Provider, who: TestIdentity | 'cancel', page = 'redirect') {
  const redirectUrl = `${APP_URL}/${provider}/${page}`;
  const started = await call(server, 'GET', `/api/auth/${provider}/login?redirectUrl=${encodeURIComponent(redirectUrl)}`);
  expect(started.statusCode, started.body).toBe(200);
  const back = await walkProvider(started.json<{ authorizeUrl: string }>().authorizeUrl, who, APP_URL);
  const iss = back.get('iss') ?? undefined;
  return { redirectUrl, code: back.get('code') ?? '', state: back.get('state') ?? '', iss, error: back.get('error') };
}

async function socialSignIn(server: TestServer, provider: Provider, who: TestIdentity) {
  const back = await authorizeAs(server, provider, who);
  return call(server, 'POST', `/api/auth/${provider}/redirect`, { code: back.code, state: back.state, iss: back.iss, redirectUrl: back.redirectUrl });
}

async function me(server: TestServer, token: string) {
  return (await call(server, 'GET', '/api/users/me', undefined, token)).json();
}

describeEachDatabase(
  'Google and Facebook sign-in',
  (server) => {
    for (const provider of ['google', 'facebook'] as const) {
      it(`${provider}: a new visitor gets a verified account without a password; the next sign-in finds it`, async () => {
        const who = identity();
        const first = await socialSignIn(server(), provider, who);
        expect(first.statusCode, first.body).toBe(200);
        expect(first.json().isNewUser).toBe(true);
        const account = await me(server(), first.json().access_token);
        expect(account).toMatchObject({
          email: who.email,
          firstName: 'Ada',
          lastName: 'Lovelace',
          emailVerified: true,
          hasPassword: false,
          roles: ['user'],
          googleConnected: provider === 'google',
          facebookConnected: provider === 'facebook',
        });
        const again = await socialSignIn(server(), provider, who);
        expect(again.json().isNewUser).toBe(false);
        expect((await me(server(), again.json().access_token)).id).toBe(account.id);
        // Issue 44: the new account's first session is no news to its owner, nor the same browser again.
        await server().app.jobs.idle();
        expect(await server().db.kysely.selectFrom('outbox').select('subject').where('to_address', '=', who.email).execute()).toEqual([]);
      });
    }

    it('the authorize URL carries state, PKCE S256 and, for Google, a nonce', async () => {
      const redirectUrl = `${APP_URL}/de/google/redirect`;
      const response = await call(server(), 'GET', `/api/auth/google/login?redirectUrl=${encodeURIComponent(redirectUrl)}`);
      const url = new URL(response.json().authorizeUrl);
      expect(url.origin).toBe(new URL(social.google?.issuer ?? '').origin);
      expect(url.searchParams.get('redirect_uri')).toBe(redirectUrl);
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');
      for (const name of ['state', 'nonce', 'code_challenge']) expect(url.searchParams.get(name)?.length).toBeGreaterThan(20);
    });

    it('refuses a redirectUrl outside this portal’s callback pages', async () => {
      for (const redirectUrl of [
        'https://evil.example/google/redirect',
        `${APP_URL}/account/profile`,
        `${APP_URL}/facebook/redirect`,
        `${APP_URL}/google/disconnect`,
        `${APP_URL}/google/redirect?next=https://evil.example`,
        'http://localhost:3000.evil.example/google/redirect',
        'not a url',
      ]) {
        const response = await call(server(), 'GET', `/api/auth/google/login?redirectUrl=${encodeURIComponent(redirectUrl)}`);
        expect(response.statusCode, redirectUrl).toBe(400);
        expect(response.json().messageKey).toBe('REDIRECT_URL_NOT_ALLOWED');
      }
    });

    it('refuses a wrong state, and a state used once', async () => {
      const back = await authorizeAs(server(), 'google', identity());
      const wrong = await call(server(), 'POST', '/api/auth/google/redirect', { code: back.code, state: 'guessed-state', iss: back.iss, redirectUrl: back.redirectUrl });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().messageKey).toBe('STATE_MISMATCH');
      const ok = await call(server(), 'POST', '/api/auth/google/redirect', { code: back.code, state: back.state, iss: back.iss, redirectUrl: back.redirectUrl });
      expect(ok.statusCode).toBe(200);
      const replay = await call(server(), 'POST', '/api/auth/google/redirect', { code: back.code, state: back.state, iss: back.iss, redirectUrl: back.redirectUrl });
      expect(replay.json().messageKey).toBe('STATE_MISMATCH');
    });

    it('refuses a replayed authorization code, even under a fresh state', async () => {
      for (const provider of ['google', 'facebook'] as const) {
        const who = identity();
        const back = await authorizeAs(server(), provider, who);
        expect((await call(server(), 'POST', `/api/auth/${provider}/redirect`, { code: back.code, state: back.state, iss: back.iss, redirectUrl: back.redirectUrl })).statusCode).toBe(200);
        const fresh = await call(server(), 'GET', `/api/auth/${provider}/login?redirectUrl=${encodeURIComponent(back.redirectUrl)}`);
        const freshState = new URL(fresh.json().authorizeUrl).searchParams.get('state') ?? '';
        const replay = await call(server(), 'POST', `/api/auth/${provider}/redirect`, { code: back.code, state: freshState, iss: back.iss, redirectUrl: back.redirectUrl });
        expect(replay.statusCode).toBe(400);
        expect(replay.json().messageKey).toBe(provider === 'google' ? 'SOCIAL_SIGN_IN_FAILED' : 'FACEBOOK_CALLBACK_ERROR');
      }
    });

    it('a state expires after ten minutes', async () => {
      const back = await authorizeAs(server(), 'google', identity());
      server().clock.advance(11 * 60);
      const late = await call(server(), 'POST', '/api/auth/google/redirect', { code: back.code, state: back.state, iss: back.iss, redirectUrl: back.redirectUrl });
      expect(late.json().messageKey).toBe('STATE_MISMATCH');
    });

    it('an email the provider has not verified creates no account', async () => {
      for (const provider of ['google', 'facebook'] as const) {
        const who = identity({ emailVerified: false });
        const response = await socialSignIn(server(), provider, who);
        expect(response.statusCode).toBe(400);
        expect(response.json().messageKey).toBe('SOCIAL_EMAIL_UNVERIFIED');
        const rows = await server().db.kysely.selectFrom('users').select('id').where('email', '=', who.email).execute();
        expect(rows).toEqual([]);
      }
    });

    it('a person who cancels at the provider comes back with access_denied', async () => {
      for (const provider of ['google', 'facebook'] as const) {
        const back = await authorizeAs(server(), provider, 'cancel');
        expect(back.error).toBe('access_denied');
        expect(back.code).toBe('');
      }
    });

    it('an existing email account is never taken over by sign-in; its owner connects from a session', async () => {
      const owner = await server().createUser();
      const who = identity({ email: owner.email });
      const takeover = await socialSignIn(server(), 'google', who);
      expect(takeover.statusCode).toBe(409);
      expect(takeover.json().messageKey).toBe('SOCIAL_EMAIL_IN_USE');

      const session = await signIn(server(), owner.email, owner.password);
      const back = await authorizeAs(server(), 'google', who, 'connect');
      const unsigned = await call(server(), 'POST', '/api/auth/google/connect', { code: back.code, state: back.state, iss: back.iss, redirectUrl: back.redirectUrl });
      expect(unsigned.statusCode).toBe(401);
      const again = await authorizeAs(server(), 'google', who, 'connect');
      const connected = await call(server(), 'POST', '/api/auth/google/connect', { code: again.code, state: again.state, iss: again.iss, redirectUrl: again.redirectUrl }, session.access_token);
      expect(connected.statusCode, connected.body).toBe(200);
      expect(connected.json().googleConnected).toBe(true);
      const viaGoogle = await socialSignIn(server(), 'google', who);
      expect((await me(server(), viaGoogle.json().access_token)).id).toBe(owner.id);
    });

    it('a sign-in callback cannot be used to connect, nor a connect callback to sign in', async () => {
      const user = await server().createUser();
      const session = await signIn(server(), user.email, user.password);
      const back = await authorizeAs(server(), 'google', identity(), 'redirect');
      const misuse = await call(server(), 'POST', '/api/auth/google/connect', { code: back.code, state: back.state, iss: back.iss, redirectUrl: back.redirectUrl }, session.access_token);
      expect(misuse.json().messageKey).toBe('STATE_MISMATCH');
    });

    it('an identity connected to one user cannot be connected to another', async () => {
      const who = identity();
      const first = await socialSignIn(server(), 'google', who);
      expect(first.statusCode).toBe(200);
      const other = await server().createUser();
      const session = await signIn(server(), other.email, other.password);
      const back = await authorizeAs(server(), 'google', who, 'connect');
      const refused = await call(server(), 'POST', '/api/auth/google/connect', { code: back.code, state: back.state, iss: back.iss, redirectUrl: back.redirectUrl }, session.access_token);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().messageKey).toBe('SOCIAL_ALREADY_CONNECTED');
      expect((await me(server(), session.access_token)).googleConnected).toBe(false);
    });

    it('the last way to sign in cannot be disconnected; with a second one it can', async () => {
      const who = identity();
      const { access_token } = (await socialSignIn(server(), 'google', who)).json();
      const last = await call(server(), 'PATCH', '/api/users/me/disconnectSocial/google', undefined, access_token);
      expect(last.statusCode).toBe(409);
      expect(last.json().messageKey).toBe('SOCIAL_LAST_SIGN_IN_METHOD');

      const back = await authorizeAs(server(), 'facebook', identity({ email: who.email }), 'connect');
      const connected = await call(server(), 'POST', '/api/auth/facebook/connect', { code: back.code, state: back.state, iss: back.iss, redirectUrl: back.redirectUrl }, access_token);
      expect(connected.json()).toMatchObject({ googleConnected: true, facebookConnected: true });
      // The signed-in user this instance keeps follows at once (issue 45).
      expect(await me(server(), access_token)).toMatchObject({ googleConnected: true, facebookConnected: true });
      const done = await call(server(), 'PATCH', '/api/users/me/disconnectSocial/google', undefined, access_token);
      expect(done.statusCode).toBe(200);
      expect(done.json()).toMatchObject({ googleConnected: false, facebookConnected: true });
      expect(await me(server(), access_token)).toMatchObject({ googleConnected: false, facebookConnected: true });
      const notThere = await call(server(), 'PATCH', '/api/users/me/disconnectSocial/google', undefined, access_token);
      expect(notThere.json().messageKey).toBe('SOCIAL_NOT_CONNECTED');
    });

    it('a Google-only account sets its first password without an old one, and may then disconnect Google', async () => {
      const who = identity();
      const { access_token } = (await socialSignIn(server(), 'google', who)).json();
      const set = await call(server(), 'PATCH', '/api/users/password', { password: 'first password 1' }, access_token);
      expect(set.statusCode, set.body).toBe(200);
      const session = set.json().access_token;
      expect((await me(server(), session)).hasPassword).toBe(true);
      // From now on a change needs the old password.
      const unconfirmed = await call(server(), 'PATCH', '/api/users/password', { password: 'second password 2' }, session);
      expect(unconfirmed.json().messageKey).toBe('WRONG_OLD_PASSWORD');
      const done = await call(server(), 'PATCH', '/api/users/me/disconnectSocial/google', undefined, session);
      expect(done.json()).toMatchObject({ googleConnected: false, hasPassword: true });
      expect((await call(server(), 'POST', '/api/auth/login', { email: who.email, password: 'first password 1' })).statusCode).toBe(200);
    });

    it('Facebook disconnect needs the person to prove the linked Facebook account is theirs', async () => {
      const user = await server().createUser();
      const session = await signIn(server(), user.email, user.password);
      const who = identity();
      const link = await authorizeAs(server(), 'facebook', who, 'connect');
      await call(server(), 'POST', '/api/auth/facebook/connect', { code: link.code, state: link.state, iss: link.iss, redirectUrl: link.redirectUrl }, session.access_token);

      const stranger = await authorizeAs(server(), 'facebook', identity(), 'disconnect');
      const refused = await call(server(), 'POST', '/api/auth/facebook/disconnect', { code: stranger.code, state: stranger.state, iss: stranger.iss, redirectUrl: stranger.redirectUrl }, session.access_token);
      expect(refused.json().messageKey).toBe('SOCIAL_NOT_CONNECTED');

      const proof = await authorizeAs(server(), 'facebook', who, 'disconnect');
      const done = await call(server(), 'POST', '/api/auth/facebook/disconnect', { code: proof.code, state: proof.state, iss: proof.iss, redirectUrl: proof.redirectUrl }, session.access_token);
      expect(done.statusCode, done.body).toBe(200);
      expect(done.json().facebookConnected).toBe(false);
    });
  },
  () => ({ appUrl: APP_URL, social }),
);

describe('social configuration', () => {
  it('production refuses the stand-ins', () => {
    expect(() =>
      loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), APP_URL: 'https://a.example', SMTP_URL: 'smtp://m', SOCIAL_STANDINS: 'on' }, '/tmp'),
    ).toThrow(/SOCIAL_STANDINS/);
  });

  it('without client credentials a provider answers SOCIAL_PROVIDER_UNAVAILABLE, not a 500', async () => {
    const { startTestServer } = await import('../fixtures/server.js');
    const server = await startTestServer('sqlite');
    try {
      const response = await call(server, 'GET', `/api/auth/google/login?redirectUrl=${encodeURIComponent('http://localhost:3000/google/redirect')}`);
      expect(response.statusCode).toBe(503);
      expect(response.json().messageKey).toBe('SOCIAL_PROVIDER_UNAVAILABLE');
    } finally {
      await server.close();
    }
  });
});
