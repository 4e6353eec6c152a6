import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';
import { identityPage, readForm, subjectOf, type TestIdentity } from './pages.js';

export interface StandinClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

/**
 * A standards-compliant OpenID Connect provider (oidc-provider) standing in for Google offline: discovery,
 * authorization code with PKCE and nonce, signed ID tokens with `email` and `email_verified`. Its sign-in
 * page lets a person pick or type the identity. Never started in production (server/config.ts refuses).
 */
export async function startGoogleStandin(options: { host: string; publicHost: string; client: StandinClient }) {
  const accounts = new Map<string, TestIdentity>();
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'standin', alg: 'RS256', use: 'sig' };

  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, options.host, resolve));
  const issuer = `http://${options.publicHost}:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.client.clientId,
        client_secret: options.client.clientSecret,
        redirect_uris: options.client.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'given_name', 'family_name'] },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, sub) {
      const identity = accounts.get(sub);
      if (!identity) return undefined;
      return {
        accountId: sub,
        async claims() {
          const [given, ...family] = identity.name.split(' ');
          return { sub, email: identity.email, email_verified: identity.emailVerified, name: identity.name, given_name: given, family_name: family.join(' ') };
        },
      };
    },
  });
  const callback = provider.callback();

  server.on('request', (req, res) => {
    const match = /^\/interaction\/([\w-]+)(\/submit)?$/.exec(req.url ?? '');
    if (!match) {
      void callback(req, res);
      return;
    }
    void (async () => {
      try {
        const details = await provider.interactionDetails(req, res);
        if (req.method === 'GET') {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.end(identityPage({ provider: 'Google', action: `/interaction/${details.uid}/submit`, hidden: {} }));
          return;
        }
        const form = await readForm(req);
        if (form.get('cancel')) {
          await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The person cancelled the sign-in' });
          return;
        }
        const email = (form.get('email') ?? '').trim();
        const identity = { email, name: (form.get('name') ?? '').trim() || email, emailVerified: form.get('emailVerified') === 'on' };
        const accountId = subjectOf('g-', email);
        accounts.set(accountId, identity);
        const grant = new provider.Grant({ accountId, clientId: details.params.client_id as string });
        grant.addOIDCScope('openid email profile');
        const grantId = await grant.save();
        await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
      } catch (error) {
        res.writeHead(400, { 'content-type': 'text/plain' });
        res.end(`Sign-in failed: ${(error as Error).message}`);
      }
    })();
  });

  return {
    issuer,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
