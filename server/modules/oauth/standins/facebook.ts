import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StandinClient } from './google.js';
import { identityPage, readForm, subjectOf, type TestIdentity } from './pages.js';

interface PendingCode {
  redirectUri: string;
  codeChallenge: string;
  identity: TestIdentity;
  expiresAt: number;
}

const CODE_TTL_MS = 10 * 60_000;

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Graph API style error body (what Facebook answers on a bad token request). */
const oauthError = (message: string) => ({ error: { message, type: 'OAuthException', code: 100 } });

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A small OAuth 2 server standing in for Facebook Login offline: the dialog (`/dialog/oauth`, with a page
 * to pick or type the identity), the code exchange (`/oauth/access_token`, PKCE S256, codes single use)
 * and the Graph `/me` call with `id`, `name` and `email`. Never started in production.
 */
export async function startFacebookStandin(options: { host: string; publicHost: string; client: StandinClient }) {
  const codes = new Map<string, PendingCode>();
  const tokens = new Map<string, TestIdentity>();

  const redirectWith = (res: ServerResponse, redirectUri: string, params: Record<string, string>) => {
    const target = new URL(redirectUri);
    for (const [key, value] of Object.entries(params)) target.searchParams.set(key, value);
    res.writeHead(302, { location: target.toString() });
    res.end();
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://standin');
    if (url.pathname === '/dialog/oauth' && req.method === 'GET') {
      const params = url.searchParams;
      const redirectUri = params.get('redirect_uri') ?? '';
      if (params.get('client_id') !== options.client.clientId || !options.client.redirectUris.includes(redirectUri)) {
        json(res, 400, oauthError('Invalid client_id or redirect_uri'));
        return;
      }
      if (params.get('code_challenge_method') !== 'S256' || !params.get('code_challenge')) {
        json(res, 400, oauthError('PKCE with S256 is required'));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        identityPage({
          provider: 'Facebook',
          action: '/dialog/oauth/decide',
          hidden: { redirect_uri: redirectUri, state: params.get('state') ?? '', code_challenge: params.get('code_challenge') ?? '' },
        }),
      );
      return;
    }
    if (url.pathname === '/dialog/oauth/decide' && req.method === 'POST') {
      const form = await readForm(req);
      const redirectUri = form.get('redirect_uri') ?? '';
      if (!options.client.redirectUris.includes(redirectUri)) {
        json(res, 400, oauthError('Invalid redirect_uri'));
        return;
      }
      const state = form.get('state') ?? '';
      if (form.get('cancel')) {
        redirectWith(res, redirectUri, { error: 'access_denied', error_code: '200', error_description: 'Permissions error', error_reason: 'user_denied', state });
        return;
      }
      const email = (form.get('email') ?? '').trim();
      const code = randomBytes(24).toString('base64url');
      codes.set(code, {
        redirectUri,
        codeChallenge: form.get('code_challenge') ?? '',
        identity: { email, name: (form.get('name') ?? '').trim() || email, emailVerified: form.get('emailVerified') === 'on' },
        expiresAt: Date.now() + CODE_TTL_MS,
      });
      redirectWith(res, redirectUri, { code, state });
      return;
    }
    if (url.pathname === '/oauth/access_token') {
      const params = req.method === 'POST' ? await readForm(req) : url.searchParams;
      const code = params.get('code') ?? '';
      const pending = codes.get(code);
      codes.delete(code);
      const verifier = params.get('code_verifier') ?? '';
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      if (
        params.get('client_id') !== options.client.clientId ||
        !sameSecret(params.get('client_secret') ?? '', options.client.clientSecret) ||
        !pending ||
        pending.expiresAt < Date.now() ||
        pending.redirectUri !== params.get('redirect_uri') ||
        pending.codeChallenge !== challenge
      ) {
        json(res, 400, oauthError('This authorization code has been used, expired or does not match'));
        return;
      }
      const accessToken = randomBytes(32).toString('base64url');
      tokens.set(accessToken, pending.identity);
      json(res, 200, { access_token: accessToken, token_type: 'bearer', expires_in: 3600 });
      return;
    }
    if (url.pathname === '/me' && req.method === 'GET') {
      const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? url.searchParams.get('access_token') ?? '';
      const identity = tokens.get(bearer);
      if (!identity) {
        json(res, 401, oauthError('Invalid OAuth access token'));
        return;
      }
      // Facebook returns the email only when the person has confirmed it.
      json(res, 200, {
        id: subjectOf('fb-', identity.email),
        name: identity.name,
        ...(identity.emailVerified ? { email: identity.email } : {}),
      });
      return;
    }
    json(res, 404, oauthError('Unknown path'));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => json(res, 400, oauthError((error as Error).message)));
  });
  await new Promise<void>((resolve) => server.listen(0, options.host, resolve));
  const base = `http://${options.publicHost}:${(server.address() as AddressInfo).port}`;
  return {
    authorizationUrl: `${base}/dialog/oauth`,
    tokenUrl: `${base}/oauth/access_token`,
    meUrl: `${base}/me`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
