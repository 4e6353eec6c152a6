import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import * as client from 'openid-client';
import type { CallbackRequest, SocialProvider } from '../../../contract/oauth.js';
import type { Me } from '../../../contract/users.js';
import type { Clock } from '../../clock.js';
import type { SocialConfig } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { digest } from '../../digest.js';
import { AppError } from '../../errors.js';
import type { Language } from '../../i18n.js';
import { type SessionClient, type Sessions } from '../auth/index.js';
import type { Role } from '../../../contract/users.js';
import { type UsersRepo, type UserWithRoles, meOf, type BillingFacts } from '../users/index.js';
import { secondStepFor, type TwoFactorDeps } from '../two-factor/index.js';
import * as repo from './repo.js';
import type { TwoFactorRequired } from '../../../contract/two-factor-values.js';

/** An authorization request lives this long between the redirect to the provider and its answer. */
export const AUTHORIZATION_TTL_SECONDS = 10 * 60;

export interface OAuthDeps {
  db: Kysely<Database>;
  users: UsersRepo;
  sessions: Sessions;
  clock: Clock;
  social: SocialConfig;
  /** The portal's public origin: the only place a provider may send the browser back to. */
  appUrl: string;
  twoFactor: TwoFactorDeps;
  /** Billing's facts for the user's answer (users' MeDeps). */
  billingFacts: BillingFacts;
}

/** What a provider tells us about the person, after the code exchange. */
interface ProviderIdentity {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

type Purpose = 'redirect' | 'connect' | 'disconnect';
const CALLBACK_PATH = /^(?:\/(?:en|de))?\/(google|facebook)\/(redirect|connect|disconnect)$/;

/**
 * The provider configurations, built once: Google by OpenID Connect discovery, Facebook from its OAuth 2
 * endpoints. Plain http is allowed only for the local stand-ins.
 */
export class SocialClients {
  private google: Promise<client.Configuration> | null = null;
  private facebook: client.Configuration | null = null;

  constructor(private readonly social: SocialConfig) {}

  async get(provider: SocialProvider): Promise<client.Configuration> {
    const insecure = this.social.standins ? { execute: [client.allowInsecureRequests] } : undefined;
    if (provider === 'google') {
      const settings = this.social.google;
      if (!settings) throw new AppError('SOCIAL_PROVIDER_UNAVAILABLE', 503);
      this.google ??= client
        .discovery(new URL(settings.issuer), settings.clientId, settings.clientSecret, undefined, insecure)
        .catch((error: unknown) => {
          this.google = null;
          throw new AppError('SOCIAL_PROVIDER_UNAVAILABLE', 503, { cause: error });
        });
      return this.google;
    }
    const settings = this.social.facebook;
    if (!settings) throw new AppError('SOCIAL_PROVIDER_UNAVAILABLE', 503);
    if (!this.facebook) {
      this.facebook = new client.Configuration(
        {
          issuer: new URL(settings.authorizationUrl).origin,
          authorization_endpoint: settings.authorizationUrl,
          token_endpoint: settings.tokenUrl,
        },
        settings.clientId,
        undefined,
        // Facebook reads the client secret from the request body.
        client.ClientSecretPost(settings.clientSecret),
      );
      if (this.social.standins) client.allowInsecureRequests(this.facebook);
    }
    return this.facebook;
  }
}

/** The callback page a redirect URL names, or an error when it is not one of this portal's. */
function callbackPurpose(deps: OAuthDeps, provider: SocialProvider, redirectUrl: string): Purpose {
  let url: URL;
  try {
    url = new URL(redirectUrl);
  } catch {
    throw new AppError('REDIRECT_URL_NOT_ALLOWED', 400);
  }
  const match = CALLBACK_PATH.exec(url.pathname);
  const purpose = match?.[2] as Purpose | undefined;
  const allowed =
    url.origin === new URL(deps.appUrl).origin &&
    url.search === '' &&
    url.hash === '' &&
    match?.[1] === provider &&
    purpose !== undefined &&
    (purpose !== 'disconnect' || provider === 'facebook');
  if (!allowed) throw new AppError('REDIRECT_URL_NOT_ALLOWED', 400);
  return purpose;
}

/**
 * `GET /auth/{provider}/login?redirectUrl`: a fresh authorization request (state, PKCE S256 and, for
 * Google, a nonce), kept by the digest of its state, and the provider's address to send the browser to.
 */
export async function authorize(deps: OAuthDeps, clients: SocialClients, provider: SocialProvider, redirectUrl: string) {
  callbackPurpose(deps, provider, redirectUrl);
  const config = await clients.get(provider);
  const state = client.randomState();
  const codeVerifier = client.randomPKCECodeVerifier();
  const nonce = provider === 'google' ? client.randomNonce() : null;
  const now = deps.clock.now();
  await repo.insertRequest(deps.db, {
    state_hash: digest(state),
    provider,
    redirect_url: redirectUrl,
    code_verifier: codeVerifier,
    nonce,
    expires_at: new Date(now.getTime() + AUTHORIZATION_TTL_SECONDS * 1000).toISOString(),
    created_at: now.toISOString(),
  });
  const parameters: Record<string, string> = {
    redirect_uri: redirectUrl,
    response_type: 'code',
    scope: provider === 'google' ? 'openid email profile' : 'email public_profile',
    state,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  };
  if (nonce) parameters.nonce = nonce;
  return { authorizeUrl: client.buildAuthorizationUrl(config, parameters).toString() };
}

/**
 * Finishes an authorization: the request is taken by its state (single use, unexpired, same provider,
 * same return page, the purpose the caller expects), the code is exchanged with the PKCE verifier, and
 * the identity is read (Google: the verified ID token; Facebook: the Graph `/me` call).
 */
async function identify(
  deps: OAuthDeps,
  clients: SocialClients,
  provider: SocialProvider,
  input: CallbackRequest,
  expected: Purpose,
): Promise<ProviderIdentity> {
  const request = await repo.takeRequest(deps.db, digest(input.state));
  if (
    !request ||
    request.provider !== provider ||
    request.redirect_url !== input.redirectUrl ||
    new Date(request.expires_at) <= deps.clock.now() ||
    callbackPurpose(deps, provider, request.redirect_url) !== expected
  ) {
    throw new AppError('STATE_MISMATCH', 400);
  }
  const config = await clients.get(provider);
  const callbackUrl = new URL(request.redirect_url);
  callbackUrl.searchParams.set('code', input.code);
  callbackUrl.searchParams.set('state', input.state);
  if (input.iss) callbackUrl.searchParams.set('iss', input.iss);
  const failure = provider === 'google' ? 'SOCIAL_SIGN_IN_FAILED' : 'FACEBOOK_CALLBACK_ERROR';
  try {
    const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: request.code_verifier,
      expectedState: input.state,
      ...(request.nonce ? { expectedNonce: request.nonce } : {}),
      idTokenExpected: provider === 'google',
    });
    if (provider === 'google') {
      const idToken = tokens.claims();
      if (!idToken) throw new Error('no ID token');
      // Google puts the email in the ID token; a provider that keeps it for UserInfo is asked there.
      const claims = typeof idToken.email === 'string' ? idToken : await client.fetchUserInfo(config, tokens.access_token, idToken.sub);
      return {
        subject: idToken.sub,
        email: typeof claims.email === 'string' ? claims.email : null,
        emailVerified: claims.email_verified === true,
        name: typeof claims.name === 'string' ? claims.name : null,
      };
    }
    const settings = deps.social.facebook;
    if (!settings) throw new AppError('SOCIAL_PROVIDER_UNAVAILABLE', 503);
    const me = new URL(settings.meUrl);
    me.searchParams.set('fields', 'id,name,email');
    const response = await client.fetchProtectedResource(config, tokens.access_token, me, 'GET');
    if (!response.ok) throw new Error(`Graph /me answered ${response.status}`);
    const body = (await response.json()) as { id?: unknown; name?: unknown; email?: unknown };
    if (typeof body.id !== 'string') throw new Error('Graph /me without id');
    const email = typeof body.email === 'string' ? body.email : null;
    // Facebook returns an email only once the person has confirmed it with Facebook.
    return { subject: body.id, email, emailVerified: email !== null, name: typeof body.name === 'string' ? body.name : null };
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(failure, 400, { cause: error });
  }
}

function splitName(name: string | null): { first: string | null; last: string | null } {
  const parts = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return { first: null, last: null };
  return { first: parts[0] ?? null, last: parts.slice(1).join(' ') || null };
}

/**
 * `POST /auth/{provider}/redirect`: signs in the account linked to this provider identity, or creates one
 * when the provider vouches for a new email. An email that already has an account is never linked here:
 * its owner connects the provider from a signed-in session.
 */
export async function signIn(
  deps: OAuthDeps,
  clients: SocialClients,
  provider: SocialProvider,
  input: CallbackRequest,
  language: Language,
  client: SessionClient,
): Promise<{ access_token: string; isNewUser: boolean } | TwoFactorRequired> {
  const signedIn = async (user: { id: string; roles: Role[] }) => (await deps.sessions.start(user, { method: provider, remember: false, client })).access_token;
  // An existing account with a second factor answers its challenge first (issue 44); a new one has none.
  const existingAccount = async (user: { id: string; roles: Role[] }) =>
    (await secondStepFor(deps.twoFactor, user, { method: provider, remember: false })) ?? { access_token: await signedIn(user), isNewUser: false };
  const identity = await identify(deps, clients, provider, input, 'redirect');
  const existingId = await repo.linkedUserId(deps.db, provider, identity.subject);
  if (existingId) {
    const user = await deps.users.findById(existingId);
    if (!user) throw new AppError('UNAUTHORIZED', 401);
    return existingAccount(user);
  }
  if (!identity.email || !identity.emailVerified) throw new AppError('SOCIAL_EMAIL_UNVERIFIED', 400);
  const email = identity.email.trim().toLowerCase();
  if (await deps.users.findByEmail(email)) throw new AppError('SOCIAL_EMAIL_IN_USE', 409);

  const id = randomUUID();
  const now = deps.clock.now().toISOString();
  const { first, last } = splitName(identity.name);
  try {
    // The account, its role, its sign-up's announcement and its link to the provider commit together.
    await deps.db.transaction().execute(async (trx) => {
      await deps.users.insert(
        {
          id,
          email,
          password_hash: null,
          first_name: first,
          last_name: last,
          // The provider has verified the address.
          email_verified_at: now,
          signup_source: provider,
          language,
          created_at: now,
          updated_at: now,
        },
        ['user'],
        trx,
        provider,
      );
      await repo.insertLink(trx, { provider, subject: identity.subject, userId: id, email, createdAt: now });
    });
  } catch (error) {
    // The same identity finishing twice at once: the one that lost signs in to what the other created.
    const winner = await repo.linkedUserId(deps.db, provider, identity.subject);
    const user = winner ? await deps.users.findById(winner) : undefined;
    if (!user) throw new AppError('SOCIAL_EMAIL_IN_USE', 409, { cause: error });
    return existingAccount(user);
  }
  return { access_token: await signedIn({ id, roles: ['user'] }), isNewUser: true };
}

/** `POST /auth/{provider}/connect`: links the identity to the signed-in user (and to nobody else). */
export async function connect(
  deps: OAuthDeps,
  clients: SocialClients,
  user: UserWithRoles,
  provider: SocialProvider,
  input: CallbackRequest,
): Promise<Me> {
  const identity = await identify(deps, clients, provider, input, 'connect');
  const owner = await repo.linkedUserId(deps.db, provider, identity.subject);
  if (owner && owner !== user.id) throw new AppError('SOCIAL_ALREADY_CONNECTED', 409);
  if (!owner) {
    const now = deps.clock.now().toISOString();
    try {
      await deps.db.transaction().execute(async (trx) => {
        // A user has one account per provider: connecting another replaces it.
        await repo.deleteLink(trx, user.id, provider);
        await repo.insertLink(trx, { provider, subject: identity.subject, userId: user.id, email: identity.email, createdAt: now });
      });
    } catch (error) {
      // Someone else linked the same identity in the meantime: the primary key decided.
      throw new AppError('SOCIAL_ALREADY_CONNECTED', 409, { cause: error });
    }
    deps.users.changed(user.id);
  }
  return currentMe(deps, user.id);
}

/**
 * Unlinks a provider. Someone without a password whose only way in is this provider must set a password
 * first, or they could never sign in again.
 */
export async function disconnect(deps: OAuthDeps, user: UserWithRoles, provider: SocialProvider): Promise<Me> {
  const links = await repo.linkedProviders(deps.db, user.id);
  if (!links.some((link) => link.provider === provider)) throw new AppError('SOCIAL_NOT_CONNECTED', 404);
  if (user.password_hash === null && links.length === 1) throw new AppError('SOCIAL_LAST_SIGN_IN_METHOD', 409);
  await repo.deleteLink(deps.db, user.id, provider);
  deps.users.changed(user.id);
  return currentMe(deps, user.id);
}

/** `POST /auth/facebook/disconnect`: the person proves with Facebook that the linked account is theirs. */
export async function disconnectFacebook(deps: OAuthDeps, clients: SocialClients, user: UserWithRoles, input: CallbackRequest): Promise<Me> {
  const identity = await identify(deps, clients, 'facebook', input, 'disconnect');
  if ((await repo.linkedUserId(deps.db, 'facebook', identity.subject)) !== user.id) throw new AppError('SOCIAL_NOT_CONNECTED', 404);
  return disconnect(deps, user, 'facebook');
}

async function currentMe(deps: OAuthDeps, userId: string): Promise<Me> {
  const user = await deps.users.findById(userId);
  if (!user) throw new AppError('UNAUTHORIZED', 401);
  return meOf(deps, user);
}
