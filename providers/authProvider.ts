import type { AuthProvider } from '@refinedev/core';
import { jwtDecode } from 'jwt-decode';
import type { z } from 'zod';
import type { changePasswordResponseSchema } from '../contract/account.js';
import type { LoginResponse, ValidateTokenResponse } from '../contract/auth.js';
import { isTwoFactorRequired } from '../contract/two-factor-values.js';
import { isAdmin } from '../contract/roles.js';
import type { Me } from '../contract/users.js';
import type { SessionCache } from './cache.js';
import { isApiError, messageKeyOf, type HttpClient } from './http.js';
import type { SessionStore } from './session.js';

type ChangePasswordResponse = z.infer<typeof changePasswordResponseSchema>;

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
  now?: () => number;
}

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
 */
export function createAuthProvider(deps: AuthDeps) {
  const now = deps.now ?? (() => Date.now());
  let renewal: Promise<boolean> | null = null;

  function announce(message: AuthChannelMessage) {
    deps.channel?.postMessage(message);
  }

  function clearLocalSession() {
    deps.session.clear();
    deps.cache.clear();
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
  let reading: Promise<Me | null> | null = null;
  async function currentUser(): Promise<Me | null> {
    if (deps.cache.user) return deps.cache.user;
    reading ??= readUser().finally(() => {
      reading = null;
    });
    return reading;
  }

  async function readUser(): Promise<Me | null> {
    if (!(await validSession())) return null;
    try {
      deps.cache.user = await deps.http<Me>('/users/me');
      return deps.cache.user;
    } catch (error) {
      // The token is refused (user deleted, secret rotated): the session is over.
      if (isApiError(error) && error.statusCode === 401) clearLocalSession();
      return null;
    }
  }

  const provider = {
    async login(params: LoginParams) {
      try {
        const response = await deps.http<LoginResponse>(params.admin ? '/auth/admin-login' : '/auth/login', {
          method: 'POST',
          noAuth: true,
          body: params.admin
            ? { email: params.email, password: params.password }
            : { email: params.email, password: params.password, rememberMe: Boolean(params.rememberMe) },
        });
        // The second step (issue 44) is the sign-in page's to show; it answers the challenge.
        if (isTwoFactorRequired(response)) return { success: false, error: { name: 'TWO_FACTOR_REQUIRED', message: 'TWO_FACTOR_REQUIRED' }, twoFactor: response };
        deps.cache.clear();
        deps.session.setToken(response.access_token);
        deps.session.setOfflineToken(params.rememberMe ? (response.offline_token ?? null) : null);
        if (!(await validSession())) {
          return { success: false, error: { name: 'SESSION_EXPIRED', message: 'SESSION_EXPIRED' } };
        }
        announce({ type: 'login' });
        // The page decides where to go (it knows the locale prefix and the `to` parameter).
        return params.redirectTo ? { success: true, redirectTo: params.redirectTo } : { success: true };
      } catch (error) {
        const messageKey = messageKeyOf(error);
        return { success: false, error: { name: messageKey, message: messageKey } };
      }
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
        announce({ type: 'login' });
        return { success: true };
      } catch (error) {
        const messageKey = messageKeyOf(error);
        return { success: false, error: { name: messageKey, message: messageKey } };
      }
    },

    /**
     * Google or Facebook sent the browser back with a code: `POST /auth/{provider}/redirect` signs in and the
     * access token is kept (no offline token: social sign-in does not remember the device). A failure
     * leaves no session behind (spec section 2: log out, then login with the error).
     */
    async socialLogin(params: { provider: 'google' | 'facebook'; code: string; state: string; iss?: string; redirectUrl: string }) {
      const { provider, ...body } = params;
      try {
        const response = await deps.http<{ access_token: string; isNewUser: boolean }>(`/auth/${provider}/redirect`, {
          method: 'POST',
          noAuth: true,
          body,
        });
        deps.cache.clear();
        deps.session.setOfflineToken(null);
        deps.session.setToken(response.access_token);
        announce({ type: 'login' });
        return { success: true as const, isNewUser: response.isNewUser };
      } catch (error) {
        clearLocalSession();
        return { success: false as const, messageKey: messageKeyOf(error) };
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

    async logout(params?: { redirectTo?: string }) {
      const token = deps.session.getToken();
      const offlineToken = deps.session.getOfflineToken();
      clearLocalSession();
      announce({ type: 'logout' });
      if (token !== null || offlineToken !== null) {
        // The server ends the session the token belongs to (issue 17). Best effort: the local session is
        // gone whatever the server answers.
        await deps.http('/auth/logout', { method: 'POST', noAuth: true, ...(token ? { bearer: token } : {}), body: offlineToken ? { offlineToken } : {} }).catch(() => null);
      }
      return { success: true, redirectTo: params?.redirectTo ?? '/login' };
    },

    async check() {
      if (await validSession()) return { authenticated: true };
      return { authenticated: false, logout: true, redirectTo: '/login' };
    },

    async onError(error: unknown) {
      if (isApiError(error) && error.statusCode === 401) {
        return { logout: true, redirectTo: '/login', error: new Error(error.messageKey) };
      }
      return {};
    },

    async getIdentity() {
      return currentUser();
    },

    async getPermissions() {
      const user = await currentUser();
      return user?.roles ?? [];
    },

    /** Called when another tab announces a logout: drop this tab's copy of the session too. */
    handleRemoteLogout() {
      deps.cache.clear();
    },

    isAdmin(user: Me | null) {
      return isAdmin(user?.roles);
    },
  } satisfies AuthProvider & Record<string, unknown>;
  return provider;
}

export type PortalAuthProvider = ReturnType<typeof createAuthProvider>;

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
