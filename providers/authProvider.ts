import type { AuthProvider } from '@refinedev/core';
import { jwtDecode } from 'jwt-decode';
import type { z } from 'zod';
import type { changePasswordResponseSchema } from '../contract/account.js';
import type { LoginResponse, SignInTokens, ValidateTokenResponse } from '../contract/auth.js';
import type { SocialProvider } from '../contract/oauth.js';
import type { verifyLinkResponseSchema } from '../contract/registration.js';
import { isTwoFactorRequired, type TwoFactorMethod, type TwoFactorRequired } from '../contract/two-factor-values.js';
import { isAdmin } from '../contract/roles.js';
import type { Me } from '../contract/users.js';
import type { SessionCache } from './cache.js';
import { messageKeyOf } from './errors.js';
import { isApiError, type HttpClient } from './http.js';
import { sessionIdOf, TAB_SESSION_KEYS, type SessionStore } from './session.js';

type ChangePasswordResponse = z.infer<typeof changePasswordResponseSchema>;

/**
 * The second step of a sign-in (issue 44): the first step (password, Google, Facebook) proved the account,
 * whose second factor answers `challenge` now, and the choices made at the first step carry over to it.
 */
export interface TwoFactorStep {
  challenge: string;
  methods: TwoFactorMethod[];
  rememberMe: boolean;
  admin: boolean;
}

/** An answer to the second step: a code from the authenticator app, a recovery code, or a passkey's assertion. */
export type TwoFactorAnswer = { code: string } | { recoveryCode: string } | { passkey: WebAuthnJson };

/** A WebAuthn ceremony's JSON as @simplewebauthn/browser makes and takes it (contract/two-factor.ts passes it through). */
export type WebAuthnJson = Record<string, unknown>;

/** What a sign-in answers: done, failed with a messageKey (Refine's error), or on to the second step. */
export type SignInResult = {
  success: boolean;
  redirectTo?: string;
  error?: { name: string; message: string };
  /** The account has a second factor: the sign-in continues with this step. */
  twoFactor?: TwoFactorStep;
};

/** What a Google or Facebook sign-in answers (the second step as a password sign-in's). */
export type SocialSignInResult =
  | { success: true; isNewUser: boolean }
  | { success: false; messageKey: string }
  | { success: false; twoFactor: TwoFactorStep };

/**
 * Refusals of an answer the person gave while signed in (a code from the app, a password asked again, a
 * passkey): the server says 401 for some of them (issue 44: INVALID_TWO_FACTOR_CODE), yet the session is
 * as good as before. Every other 401 means the session is over.
 */
const REFUSED_ANSWERS = new Set([
  'INVALID_TWO_FACTOR_CODE',
  'TWO_FACTOR_CHALLENGE_EXPIRED',
  'PASSKEY_VERIFICATION_FAILED',
  'PASSKEY_CEREMONY_EXPIRED',
  'WRONG_PASSWORD',
  'WRONG_OLD_PASSWORD',
  'WRONG_CREDENTIALS',
  'REAUTHENTICATION_REQUIRED',
]);

const failure = (error: unknown): SignInResult => {
  const messageKey = messageKeyOf(error);
  return { success: false, error: { name: messageKey, message: messageKey } };
};

export const AUTH_CHANNEL = 'shapelab-auth';
export type AuthChannelMessage = { type: 'logout' } | { type: 'login' };

export interface LoginParams {
  email: string;
  password: string;
  rememberMe?: boolean;
  /** Sign in through `/auth/admin-login` (admin login page). */
  admin?: boolean;
  /** Where Refine should navigate afterwards; without it the calling page navigates itself. */
  redirectTo?: string;
}

export interface AuthDeps {
  http: HttpClient;
  session: SessionStore;
  cache: SessionCache;
  /** Cross-tab announcements (spec section 4); null where BroadcastChannel is missing. */
  channel: Pick<BroadcastChannel, 'postMessage'> | null;
  /** The tab's sessionStorage, where the session keeps a few things of its own (TAB_SESSION_KEYS); null where there is none. */
  tabStorage?: Pick<Storage, 'removeItem'> | null;
  /**
   * Where the person signs in again when the session ends under their hands (a 401): the sign-in page of the
   * area the tab shows (spec section 2: the admin login in the admin area), with the address to come back
   * to.
   */
  signInAddress: () => string;
  /** The sign-in page, where a sign-out lands (the route table's, src/routing/paths.ts). */
  signInPath: string;
  /** Where staff set up the second factor the server requires of them (the route table's security page). */
  enrolmentPath: string;
  /** The app path the tab shows, without its locale prefix: a refusal sends the tab nowhere it is already. */
  currentPath?: () => string;
  now?: () => number;
}

type VerifyLinkResponse = z.infer<typeof verifyLinkResponseSchema>;

/** True when the token's `exp` (seconds) is still in the future. Undecodable tokens count as expired. */
export function isTokenFresh(token: string, nowMs: number): boolean {
  try {
    const { exp } = jwtDecode<{ exp?: number }>(token);
    return typeof exp === 'number' && exp * 1000 > nowMs;
  } catch {
    return false;
  }
}

/**
 * Session rules of spec section 4 as a Refine auth provider. Login keeps the offline token only with
 * remember me; `check` uses a fresh token, renews an expired one through `/auth/validate` with the
 * offline token, and clears everything when that fails; logout clears tokens and caches and tells
 * the other tabs.
 *
 * Issue 44 item 8: whatever the tab holds for a user (the cache's stores, the tab's session keys) goes
 * whenever a session starts, changes or ends, and the cache answers only for the session whose token is
 * stored (`claim`): tokens replaced under the running app never show the last user's data to the next.
 */
export function createAuthProvider(deps: AuthDeps) {
  const now = deps.now ?? (() => Date.now());
  const signInAddress = deps.signInAddress;
  let renewal: Promise<boolean> | null = null;

  function announce(message: AuthChannelMessage) {
    // Issue 47: a read-only view's sign-in and end are its tab's alone; the other tabs keep their session.
    if (deps.session.isReadOnlyView()) return;
    deps.channel?.postMessage(message);
  }

  /** The tab's own record of the session (the keys the session keeps in its sessionStorage) goes with it. */
  function forgetTabSession() {
    for (const key of Object.values(TAB_SESSION_KEYS)) deps.tabStorage?.removeItem(key);
  }

  /**
   * The session ends in this tab: its tokens, what the tab keeps for it and everything in memory. A visitor
   * who held none keeps what the tab keeps for the sign-in to come (the checkout chosen before it).
   */
  function clearLocalSession() {
    const held = deps.session.getToken() !== null || deps.session.getOfflineToken() !== null;
    deps.session.clear();
    if (held) forgetTabSession();
    deps.cache.clear();
  }

  /** The memory answers for the session whose token is stored now; another session's data goes first. */
  function claimCache(): string | null {
    const session = sessionIdOf(deps.session.getToken());
    deps.cache.claim(session);
    return session;
  }

  /**
   * A sign-in's tokens become the tab's session (the offline token only with remember me), with nothing of a
   * session before it in memory; the other tabs start over with it.
   */
  async function startSession(tokens: { access_token: string; offline_token?: string | undefined }, rememberMe: boolean, redirectTo?: string): Promise<SignInResult> {
    deps.cache.clear();
    deps.session.setToken(tokens.access_token);
    deps.session.setOfflineToken(rememberMe ? (tokens.offline_token ?? null) : null);
    if (!(await validSession())) {
      return { success: false, error: { name: 'SESSION_EXPIRED', message: 'SESSION_EXPIRED' } };
    }
    claimCache();
    announce({ type: 'login' });
    // The page decides where to go (it knows the locale prefix and the `to` parameter).
    return redirectTo ? { success: true, redirectTo } : { success: true };
  }

  async function renewOnce(): Promise<boolean> {
    const offlineToken = deps.session.getOfflineToken();
    if (offlineToken === null) return false;
    try {
      const renewed = await deps.http<ValidateTokenResponse>('/auth/validate', {
        method: 'POST',
        noAuth: true,
        body: { authToken: deps.session.getToken() ?? '', offlineToken },
      });
      deps.session.setToken(renewed.access_token);
      deps.session.setOfflineToken(renewed.offline_token);
      return true;
    } catch {
      return false;
    }
  }

  /** One renewal at a time per tab; concurrent checks share it. */
  function renew(): Promise<boolean> {
    renewal ??= renewOnce().finally(() => {
      renewal = null;
    });
    return renewal;
  }

  async function validSession(): Promise<boolean> {
    const token = deps.session.getToken();
    if (token !== null && isTokenFresh(token, now())) return true;
    if (await renew()) return true;
    clearLocalSession();
    return false;
  }

  /**
   * The signed-in user, read once: the guard, the identity and the permissions all ask for it as a page
   * starts, and share the one request under way (issue 18: /users/me once per navigation at most).
   */
  let reading: { session: string | null; user: Promise<Me | null> } | null = null;
  async function currentUser(): Promise<Me | null> {
    const session = claimCache();
    if (deps.cache.user) return deps.cache.user;
    // A read under way for another session (its tokens were replaced meanwhile) is not this session's user.
    if (reading !== null && reading.session === session) return reading.user;
    const read = { session, user: readUser() };
    reading = read;
    void read.user.finally(() => {
      if (reading === read) reading = null;
    });
    return read.user;
  }

  async function readUser(): Promise<Me | null> {
    if (!(await validSession())) return null;
    // After a renewal the session is the same (`sid`), so the claim made before it still holds.
    const session = claimCache();
    try {
      const user = await deps.http<Me>('/users/me');
      // Stored only for the session it was read for: the tab may hold another one by now.
      if (sessionIdOf(deps.session.getToken()) !== session) return null;
      deps.cache.user = user;
      return user;
    } catch (error) {
      // The token is refused (user deleted, session ended elsewhere): the session is over, unless the refusal
      // was of a session the tab no longer holds.
      if (isApiError(error) && error.statusCode === 401 && !error.otherSession) clearLocalSession();
      return null;
    }
  }

  /**
   * The server ends the session these tokens belong to (issue 17). Best effort: the local session is gone
   * whatever the server answers.
   */
  async function endOnServer(token: string | null, offlineToken: string | null): Promise<void> {
    if (token === null && offlineToken === null) return;
    await deps.http('/auth/logout', { method: 'POST', noAuth: true, ...(token ? { bearer: token } : {}), body: offlineToken ? { offlineToken } : {} }).catch(() => null);
  }

  const provider = {
    async login(params: LoginParams): Promise<SignInResult> {
      const admin = params.admin === true;
      const rememberMe = !admin && params.rememberMe === true;
      try {
        const response = await deps.http<LoginResponse>(admin ? '/auth/admin-login' : '/auth/login', {
          method: 'POST',
          noAuth: true,
          body: admin ? { email: params.email, password: params.password } : { email: params.email, password: params.password, rememberMe },
        });
        // Issue 44: an account with a second factor gets no token yet; the sign-in page asks for it.
        if (isTwoFactorRequired(response)) return { success: false, twoFactor: stepOf(response, rememberMe, admin) };
        return await startSession(response, rememberMe, params.redirectTo);
      } catch (error) {
        return failure(error);
      }
    },

    /**
     * The second step (issue 44): `POST /auth/login/two-factor` with the challenge and one answer; its tokens
     * start the session as the first step's would have. Fails with the messageKey: INVALID_TWO_FACTOR_CODE
     * (try again), TWO_FACTOR_CHALLENGE_EXPIRED (start over at the first step), TOO_MANY_REQUESTS...
     */
    async completeTwoFactor(step: TwoFactorStep, answer: TwoFactorAnswer): Promise<SignInResult> {
      try {
        const tokens = await deps.http<SignInTokens>('/auth/login/two-factor', { method: 'POST', noAuth: true, body: { challenge: step.challenge, ...answer } });
        return await startSession(tokens, step.rememberMe, undefined);
      } catch (error) {
        return failure(error);
      }
    },

    /** WebAuthn options for answering the second step with a passkey (`POST /auth/login/two-factor/passkey`). */
    async twoFactorPasskeyOptions(step: TwoFactorStep): Promise<WebAuthnJson> {
      const { options } = await deps.http<{ options: WebAuthnJson }>('/auth/login/two-factor/passkey', { method: 'POST', noAuth: true, body: { challenge: step.challenge } });
      return options;
    },

    /** The start of a sign-in with a passkey alone (`POST /auth/passkey/options`): a ceremony and its WebAuthn options. */
    passkeySignInOptions(): Promise<{ ceremony: string; options: WebAuthnJson }> {
      return deps.http<{ ceremony: string; options: WebAuthnJson }>('/auth/passkey/options', { method: 'POST', noAuth: true, body: {} });
    },

    /** Signs in with the browser's answer to a passkey ceremony (`POST /auth/passkey`); `admin` for the admin area. */
    async passkeySignIn(params: { ceremony: string; response: WebAuthnJson; rememberMe: boolean; admin: boolean }): Promise<SignInResult> {
      const rememberMe = !params.admin && params.rememberMe;
      try {
        const tokens = await deps.http<SignInTokens>('/auth/passkey', {
          method: 'POST',
          noAuth: true,
          body: { ceremony: params.ceremony, response: params.response, rememberMe, admin: params.admin },
        });
        return await startSession(tokens, rememberMe, undefined);
      } catch (error) {
        return failure(error);
      }
    },

    /**
     * Tokens handed over in the address (spec section 2) become the tab's session: both of them, so a
     * remembered session of someone else never renews into this one. A different session held before
     * ends, here (with everything the tab kept for it) and on the server, and the other tabs start over.
     */
    async adoptSession(tokens: { accessToken: string | null; offlineToken: string | null }): Promise<void> {
      const previous = { token: deps.session.getToken(), offlineToken: deps.session.getOfflineToken() };
      if (previous.token === tokens.accessToken && previous.offlineToken === tokens.offlineToken) return;
      const sameSession = tokens.accessToken !== null && sessionIdOf(previous.token) === sessionIdOf(tokens.accessToken);
      if (!sameSession) clearLocalSession();
      if (tokens.accessToken) deps.session.setToken(tokens.accessToken);
      else deps.session.clear();
      deps.session.setOfflineToken(tokens.offlineToken);
      claimCache();
      if (sameSession) return;
      announce({ type: 'login' });
      await endOnServer(previous.token, previous.offlineToken);
    },

    /**
     * Issue 47: a staff member's read-only view of a customer's account, handed to a new tab in its address:
     * the tab holds it apart from the browser's shared session (which stays signed in, in the other tabs and
     * on the server) and tells no other tab.
     */
    adoptReadOnlyView(token: string): void {
      deps.cache.clear();
      deps.session.enterReadOnlyView(token);
      claimCache();
    },

    /** Spec section 4: confirming an account with its emailed code stores the returned access token. */
    async confirmAccount(params: { email: string; code: string }) {
      try {
        const response = await deps.http<{ access_token: string }>('/users/validate/code', {
          method: 'POST',
          noAuth: true,
          body: params,
        });
        deps.cache.clear();
        deps.session.setOfflineToken(null);
        deps.session.setToken(response.access_token);
        claimCache();
        announce({ type: 'login' });
        return { success: true };
      } catch (error) {
        const messageKey = messageKeyOf(error);
        return { success: false, error: { name: messageKey, message: messageKey } };
      }
    },

    /**
     * `GET /users/validate/{token}`, the mailed link: verifies the address and, opened in the browser that
     * asked for the mail, signs in (issue 48 item 5; the server decides by its cookie). Its token becomes the
     * tab's session as tokens handed over do (adoptSession: a session held before ends). Rejects with the
     * server's refusal (VERIFICATION_LINK_INVALID, ALREADY_VERIFIED...).
     */
    async verifyEmailLink(token: string): Promise<{ signedIn: boolean }> {
      const answer = await deps.http<VerifyLinkResponse>(`/users/validate/${encodeURIComponent(token.trim())}`, { noAuth: true });
      if (answer.access_token === undefined) return { signedIn: false };
      await provider.adoptSession({ accessToken: answer.access_token, offlineToken: null });
      return { signedIn: true };
    },

    /**
     * Google or Facebook sent the browser back with a code: `POST /auth/{provider}/redirect` signs in and the
     * access token is kept (no offline token: social sign-in does not remember the device). A failure
     * leaves no session behind (spec section 2: log out, then login with the error).
     */
    async socialLogin(params: { provider: SocialProvider; code: string; state: string; iss?: string; redirectUrl: string }): Promise<SocialSignInResult> {
      const { provider, ...body } = params;
      try {
        const response = await deps.http<{ access_token: string; isNewUser: boolean } | TwoFactorRequired>(`/auth/${provider}/redirect`, {
          method: 'POST',
          noAuth: true,
          body,
        });
        // Issue 44: the account has a second factor; the callback page asks for it.
        if (isTwoFactorRequired(response)) return { success: false, twoFactor: stepOf(response, false, false) };
        deps.cache.clear();
        deps.session.setOfflineToken(null);
        deps.session.setToken(response.access_token);
        claimCache();
        announce({ type: 'login' });
        return { success: true, isNewUser: response.isNewUser };
      } catch (error) {
        clearLocalSession();
        return { success: false, messageKey: messageKeyOf(error) };
      }
    },

    /**
     * `PATCH /users/password`. The server ends every other session; this one continues with the tokens it
     * returns (the remembered session too, when there is one). Fails with the server's messageKey.
     */
    async changePassword(params: { password: string; oldPassword?: string }): Promise<void> {
      const offlineToken = deps.session.getOfflineToken();
      const response = await deps.http<ChangePasswordResponse>('/users/password', {
        method: 'PATCH',
        body: offlineToken === null ? params : { ...params, offlineToken },
      });
      deps.session.setToken(response.access_token);
      deps.session.setOfflineToken(offlineToken === null ? null : (response.offline_token ?? null));
    },

    /** Renews the session with the offline token (one renewal at a time); false when that is not possible. */
    renewSession(): Promise<boolean> {
      return renew();
    },

    /** The profile was saved: the answer is the current user from now on. */
    rememberUser(user: Me) {
      deps.cache.user = user;
    },

    /**
     * Reads the current user again after a change the answer did not carry (a second factor set up or
     * removed: `twoFactorEnabled`, `twoFactorEnrolmentRequired`); the user before stays until it is in.
     */
    async reloadUser(): Promise<Me | null> {
      const session = claimCache();
      const user = await deps.http<Me>('/users/me');
      if (sessionIdOf(deps.session.getToken()) !== session) return null;
      deps.cache.user = user;
      return user;
    },

    async logout(params?: { redirectTo?: string }) {
      const token = deps.session.getToken();
      const offlineToken = deps.session.getOfflineToken();
      clearLocalSession();
      announce({ type: 'logout' });
      await endOnServer(token, offlineToken);
      return { success: true, redirectTo: params?.redirectTo ?? deps.signInPath };
    },

    async check() {
      if (await validSession()) {
        claimCache();
        return { authenticated: true };
      }
      return { authenticated: false, logout: true, redirectTo: signInAddress() };
    },

    async onError(error: unknown) {
      if (!isApiError(error) || error.otherSession) return {};
      // A refusal of a session the tab no longer holds (a call of the user before, answered late) ends nothing,
      // nor does a refusal of what the person typed.
      if (error.statusCode === 401 && !REFUSED_ANSWERS.has(error.messageKey)) {
        return { logout: true, redirectTo: signInAddress(), error: new Error(error.messageKey) };
      }
      // Issue 44: the server requires staff to set up a second factor (STAFF_TWO_FACTOR, turned on after this
      // session read its user): read the user again, so the route guard keeps them on the security page.
      if (error.statusCode === 403 && error.messageKey === 'TWO_FACTOR_ENROLMENT_REQUIRED') {
        await provider.reloadUser().catch(() => null);
        // Going there from there would mount the page anew (a setup under way lost), to be refused again.
        return deps.currentPath?.() === deps.enrolmentPath ? {} : { redirectTo: deps.enrolmentPath };
      }
      return {};
    },

    async getIdentity() {
      return currentUser();
    },

    /** What the user may do in the admin area (issue 47: the server's list, from their roles; none in a read-only view). */
    async getPermissions() {
      const user = await currentUser();
      return user?.permissions ?? [];
    },

    /**
     * The user of this tab's session as far as it is known without asking: the cached user, when the cache
     * belongs to the session whose token is stored (the route guard's synchronous answer).
     */
    knownUser(): Me | null {
      return deps.cache.session !== null && deps.cache.session === sessionIdOf(deps.session.getToken()) ? deps.cache.user : null;
    },

    /** Another tab signed out: drop this tab's copy of the session too (the tokens it shares are gone already). */
    handleRemoteLogout() {
      forgetTabSession();
      deps.cache.clear();
    },

    /** Another tab signed in, maybe as someone else: what this tab kept for its session is not the new one's. */
    handleRemoteLogin() {
      forgetTabSession();
      deps.cache.clear();
    },

    isAdmin(user: Me | null) {
      return isAdmin(user?.roles);
    },
  } satisfies AuthProvider & Record<string, unknown>;
  return provider;
}

export type PortalAuthProvider = ReturnType<typeof createAuthProvider>;

function stepOf(answer: TwoFactorRequired, rememberMe: boolean, admin: boolean): TwoFactorStep {
  return { challenge: answer.challenge, methods: answer.methods, rememberMe, admin };
}

/**
 * Cross-tab behaviour (spec section 4): a logout elsewhere removes this tab's session data and sends it to
 * login; a login elsewhere resets this tab to the site origin so it starts over with the new session.
 */
export function listenToOtherTabs(
  channel: Pick<BroadcastChannel, 'addEventListener' | 'removeEventListener'>,
  handlers: { onLogout: () => void; onLogin: () => void },
): () => void {
  const listener = (event: MessageEvent<AuthChannelMessage>) => {
    if (event.data?.type === 'logout') handlers.onLogout();
    else if (event.data?.type === 'login') handlers.onLogin();
  };
  channel.addEventListener('message', listener as EventListener);
  return () => channel.removeEventListener('message', listener as EventListener);
}
