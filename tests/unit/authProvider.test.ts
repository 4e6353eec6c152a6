import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAuthProvider, listenToOtherTabs } from '../../providers/authProvider.js';
import { createSessionCache } from '../../providers/cache.js';
import type { ApiError, HttpClient, RequestOptions } from '../../providers/http.js';
import { createSessionStore, TAB_SESSION_KEYS, TOKEN_KEY } from '../../providers/session.js';
import type { Me } from '../../contract/users.js';
import { jwt, memoryStorage } from './fakes.js';

const NOW_MS = 1_700_000_000_000;
/** Where the provider sends the tab: the route table's addresses, as providers/index.ts gives them. */
const ADDRESSES = { signInAddress: () => '/login', signInPath: '/login', enrolmentPath: '/account/security' };
const NOW_S = NOW_MS / 1000;
const FRESH = jwt(NOW_S + 3600);
const FRESH_RENEWED = jwt(NOW_S + 7200);
const EXPIRED = jwt(NOW_S - 60);

const ME: Me = {
  id: 'u1',
  email: 'user@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  roles: ['user'],
  emailVerified: true,
  subscriptionId: null,
  eligibleForDiscountBasedOnPreviousVersion: false,
  createdAt: '2024-01-01T00:00:00.000Z',
  phone: null,
  newsletter: false,
  language: 'en',
  hasPassword: true,
  country: null,
  couponCode: null,
  googleConnected: false,
  facebookConnected: false,
  twoFactorEnabled: false,
  twoFactorEnrolmentRequired: false,
  permissions: [],
  readOnlyView: null,
};

function apiError(statusCode: number, messageKey: string): ApiError {
  return { messageKey, message: messageKey, statusCode };
}

interface HttpCall {
  url: string;
  options: RequestOptions | undefined;
}

/** Each URL answers with a value, or with what a function returns or throws. Unknown URLs fail. */
type Answer = unknown | ((options: RequestOptions | undefined) => unknown);

function fakeHttp(answers: Record<string, Answer> = {}) {
  const calls: HttpCall[] = [];
  const http: HttpClient = async <T,>(url: string, options?: RequestOptions): Promise<T> => {
    calls.push({ url, options });
    if (!(url in answers)) throw new Error(`unexpected call to ${url}`);
    const answer = answers[url];
    return (typeof answer === 'function' ? await answer(options) : answer) as T;
  };
  return { http, calls };
}

function setup(answers: Record<string, Answer> = {}, stored: { token?: string; offline?: string } = {}) {
  const session = createSessionStore(memoryStorage());
  if (stored.token !== undefined) session.setToken(stored.token);
  if (stored.offline !== undefined) session.setOfflineToken(stored.offline);
  const cache = createSessionCache();
  // A per-user store of the kind the signed-in frame adds (Refine's query cache, the live stream).
  const store = { cleared: 0 };
  cache.add(() => {
    store.cleared += 1;
  });
  const tabStorage = memoryStorage();
  const channel = { postMessage: vi.fn() };
  const { http, calls } = fakeHttp(answers);
  const auth = createAuthProvider({ http, session, cache, channel, tabStorage, now: () => NOW_MS, ...ADDRESSES });
  return { auth, session, cache, channel, calls, store, tabStorage };
}

function callsTo(calls: HttpCall[], url: string): HttpCall[] {
  return calls.filter((call) => call.url === url);
}

describe('login (spec section 4)', () => {
  const credentials = { email: 'user@example.com', password: 'secret123' };

  it('stores the access token', async () => {
    const { auth, session } = setup({ '/auth/login': { access_token: FRESH, offline_token: 'offline-1' } });
    const result = await auth.login(credentials);
    expect(result.success).toBe(true);
    expect(session.getToken()).toBe(FRESH);
  });

  it('stores the offline token only when rememberMe is set', async () => {
    const { auth, session } = setup({ '/auth/login': { access_token: FRESH, offline_token: 'offline-1' } });
    await auth.login({ ...credentials, rememberMe: true });
    expect(session.getOfflineToken()).toBe('offline-1');
  });

  it('without rememberMe the offline token is not stored', async () => {
    const { auth, session } = setup({ '/auth/login': { access_token: FRESH, offline_token: 'offline-1' } });
    await auth.login({ ...credentials, rememberMe: false });
    expect(session.getOfflineToken()).toBeNull();
  });

  it('without rememberMe a previously stored offline token is cleared', async () => {
    const { auth, session } = setup(
      { '/auth/login': { access_token: FRESH, offline_token: 'offline-new' } },
      { offline: 'offline-old' },
    );
    await auth.login(credentials);
    expect(session.getOfflineToken()).toBeNull();
  });

  it('posts to /auth/login with no auth and the rememberMe flag', async () => {
    const { auth, calls } = setup({ '/auth/login': { access_token: FRESH } });
    await auth.login({ ...credentials, rememberMe: true });
    expect(calls).toEqual([
      {
        url: '/auth/login',
        options: { method: 'POST', noAuth: true, body: { ...credentials, rememberMe: true } },
      },
    ]);
  });

  it('sends rememberMe false when it is not set', async () => {
    const { auth, calls } = setup({ '/auth/login': { access_token: FRESH } });
    await auth.login(credentials);
    expect(calls[0]?.options?.body).toEqual({ ...credentials, rememberMe: false });
  });

  it('admin login posts to /auth/admin-login with email and password only', async () => {
    const { auth, calls, session } = setup({ '/auth/admin-login': { access_token: FRESH } });
    const result = await auth.login({ ...credentials, admin: true, rememberMe: true });
    expect(result.success).toBe(true);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe('/auth/admin-login');
    expect(calls[0]?.options).toMatchObject({ method: 'POST', noAuth: true });
    expect(calls[0]?.options?.body).toStrictEqual(credentials);
    expect(session.getToken()).toBe(FRESH);
  });

  it('announces login to other tabs', async () => {
    const { auth, channel } = setup({ '/auth/login': { access_token: FRESH } });
    await auth.login(credentials);
    expect(channel.postMessage).toHaveBeenCalledExactlyOnceWith({ type: 'login' });
  });

  it('passes redirectTo through when the caller gives one', async () => {
    const { auth } = setup({ '/auth/login': { access_token: FRESH } });
    await expect(auth.login({ ...credentials, redirectTo: '/account/profile' })).resolves.toEqual({
      success: true,
      redirectTo: '/account/profile',
    });
  });

  it('a failed login returns the messageKey as error message and stores nothing', async () => {
    const { auth, session, channel } = setup({
      '/auth/login': () => {
        throw apiError(400, 'WRONG_CREDENTIALS');
      },
    });
    const result = await auth.login({ ...credentials, rememberMe: true });
    expect(result.success).toBe(false);
    expect(result.error?.message).toBe('WRONG_CREDENTIALS');
    expect(session.getToken()).toBeNull();
    expect(session.getOfflineToken()).toBeNull();
    expect(channel.postMessage).not.toHaveBeenCalled();
  });

  it('a failure that is not an API error reports DEFAULT', async () => {
    const { auth } = setup({
      '/auth/login': () => {
        throw new Error('boom');
      },
    });
    const result = await auth.login(credentials);
    expect(result.success).toBe(false);
    expect(result.error?.message).toBe('DEFAULT');
  });

  it('re-checks the token: an already expired access token is not a successful login', async () => {
    const { auth, session, channel } = setup({ '/auth/login': { access_token: EXPIRED } });
    const result = await auth.login(credentials);
    expect(result.success).toBe(false);
    expect(result.error?.message).toBe('SESSION_EXPIRED');
    expect(session.getToken()).toBeNull();
    expect(channel.postMessage).not.toHaveBeenCalled();
  });
});

describe('check: token check (spec section 4)', () => {
  it('a token whose exp is in the future is used without any call', async () => {
    const { auth, calls } = setup({}, { token: FRESH, offline: 'offline-1' });
    await expect(auth.check()).resolves.toEqual({ authenticated: true });
    expect(calls).toEqual([]);
  });

  it('exp is in seconds and compared with the injected clock', async () => {
    const justExpired = jwt(NOW_S);
    const { auth, calls } = setup({}, { token: justExpired });
    await expect(auth.check()).resolves.toMatchObject({ authenticated: false });
    expect(calls).toEqual([]);
  });

  it('an expired token is renewed through /auth/validate with the offline token', async () => {
    const { auth, calls, session } = setup(
      { '/auth/validate': { access_token: FRESH_RENEWED, offline_token: 'offline-2' } },
      { token: EXPIRED, offline: 'offline-1' },
    );
    await expect(auth.check()).resolves.toEqual({ authenticated: true });
    expect(calls).toEqual([
      {
        url: '/auth/validate',
        options: { method: 'POST', noAuth: true, body: { authToken: EXPIRED, offlineToken: 'offline-1' } },
      },
    ]);
    expect(session.getToken()).toBe(FRESH_RENEWED);
    expect(session.getOfflineToken()).toBe('offline-2');
  });

  it('an undecodable token counts as expired and is renewed', async () => {
    const { auth, calls } = setup(
      { '/auth/validate': { access_token: FRESH_RENEWED, offline_token: 'offline-2' } },
      { token: 'not-a-jwt', offline: 'offline-1' },
    );
    await expect(auth.check()).resolves.toEqual({ authenticated: true });
    expect(callsTo(calls, '/auth/validate')).toHaveLength(1);
  });

  it('on renewal failure tokens are cleared and the session is unauthenticated', async () => {
    const { auth, session } = setup(
      {
        '/auth/validate': () => {
          throw apiError(401, 'INVALID_TOKEN');
        },
      },
      { token: EXPIRED, offline: 'offline-1' },
    );
    const result = await auth.check();
    expect(result).toMatchObject({ authenticated: false, logout: true });
    expect(session.getToken()).toBeNull();
    expect(session.getOfflineToken()).toBeNull();
  });

  it('an expired token without an offline token is unauthenticated and cleared, with no call', async () => {
    const { auth, session, calls } = setup({}, { token: EXPIRED });
    await expect(auth.check()).resolves.toMatchObject({ authenticated: false, logout: true });
    expect(session.getToken()).toBeNull();
    expect(calls).toEqual([]);
  });

  it('no token at all is unauthenticated', async () => {
    const { auth, calls } = setup();
    await expect(auth.check()).resolves.toMatchObject({ authenticated: false });
    expect(calls).toEqual([]);
  });

  it('two concurrent checks share one /auth/validate call', async () => {
    let release: (value: unknown) => void = () => undefined;
    const pending = new Promise((resolve) => {
      release = resolve;
    });
    const { auth, calls } = setup(
      { '/auth/validate': () => pending },
      { token: EXPIRED, offline: 'offline-1' },
    );
    const first = auth.check();
    const second = auth.check();
    release({ access_token: FRESH_RENEWED, offline_token: 'offline-2' });
    await expect(Promise.all([first, second])).resolves.toEqual([{ authenticated: true }, { authenticated: true }]);
    expect(callsTo(calls, '/auth/validate')).toHaveLength(1);
  });

  it('a later renewal is a new call once the shared one has finished', async () => {
    // The server hands back a token that is already expired, so the second check has to renew again.
    const { auth, calls } = setup(
      { '/auth/validate': { access_token: EXPIRED, offline_token: 'offline-2' } },
      { token: EXPIRED, offline: 'offline-1' },
    );
    await auth.check();
    await auth.check();
    expect(callsTo(calls, '/auth/validate')).toHaveLength(2);
  });
});

describe('password change', () => {
  const change = { password: 'new secret 9', oldPassword: 'old secret 1' };

  it('sends the offline token along and keeps the remembered session with the rotated tokens', async () => {
    const { auth, session, calls } = setup(
      { '/users/password': { access_token: 'access-2', offline_token: 'offline-2' } },
      { token: FRESH, offline: 'offline-1' },
    );
    await auth.changePassword(change);
    expect(calls).toEqual([{ url: '/users/password', options: { method: 'PATCH', body: { ...change, offlineToken: 'offline-1' } } }]);
    expect(session.getToken()).toBe('access-2');
    expect(session.getOfflineToken()).toBe('offline-2');
  });

  it('without remember me it stores only the new access token', async () => {
    const { auth, session, calls } = setup({ '/users/password': { access_token: 'access-2' } }, { token: FRESH });
    await auth.changePassword(change);
    expect(calls[0]?.options?.body).toEqual(change);
    expect(session.getToken()).toBe('access-2');
    expect(session.getOfflineToken()).toBeNull();
  });

  it('fails with the server’s error and keeps the session as it was', async () => {
    const { auth, session } = setup(
      {
        '/users/password': () => {
          throw apiError(400, 'WRONG_OLD_PASSWORD');
        },
      },
      { token: FRESH, offline: 'offline-1' },
    );
    await expect(auth.changePassword(change)).rejects.toMatchObject({ messageKey: 'WRONG_OLD_PASSWORD' });
    expect(session.getToken()).toBe(FRESH);
    expect(session.getOfflineToken()).toBe('offline-1');
  });
});

describe('logout (spec section 4)', () => {
  it('clears both tokens and the cached current user', async () => {
    const { auth, session, cache } = setup({ '/auth/logout': null }, { token: FRESH, offline: 'offline-1' });
    cache.user = ME;
    const result = await auth.logout();
    expect(result.success).toBe(true);
    expect(session.getToken()).toBeNull();
    expect(session.getOfflineToken()).toBeNull();
    expect(cache.user).toBeNull();
  });

  it('announces logout to other tabs', async () => {
    const { auth, channel } = setup({}, { token: FRESH });
    await auth.logout();
    expect(channel.postMessage).toHaveBeenCalledExactlyOnceWith({ type: 'logout' });
  });

  it('tells the server which session ends: the access token, and the offline token when there was one', async () => {
    const { auth, calls } = setup({ '/auth/logout': null }, { token: FRESH, offline: 'offline-1' });
    await auth.logout();
    expect(calls).toEqual([
      { url: '/auth/logout', options: { method: 'POST', noAuth: true, bearer: FRESH, body: { offlineToken: 'offline-1' } } },
    ]);
  });

  it('without an offline token still ends the server session of the access token', async () => {
    const { auth, calls } = setup({ '/auth/logout': null }, { token: FRESH });
    await auth.logout();
    expect(calls).toEqual([{ url: '/auth/logout', options: { method: 'POST', noAuth: true, bearer: FRESH, body: {} } }]);
  });

  it('makes no server call when there is no session at all', async () => {
    const { auth, calls } = setup({}, {});
    await auth.logout();
    expect(calls).toEqual([]);
  });

  it('still succeeds when the server call fails', async () => {
    const { auth, session } = setup(
      {
        '/auth/logout': () => {
          throw apiError(500, 'DEFAULT');
        },
      },
      { token: FRESH, offline: 'offline-1' },
    );
    await expect(auth.logout()).resolves.toMatchObject({ success: true, redirectTo: '/login' });
    expect(session.getToken()).toBeNull();
  });
});

describe('onError', () => {
  it('a 401 logs out', async () => {
    const { auth } = setup();
    await expect(auth.onError(apiError(401, 'UNAUTHORIZED'))).resolves.toMatchObject({ logout: true });
  });

  it('a 401 sends the person to sign in again where the tab says (signInAddress), /login without it', async () => {
    const { auth } = setup();
    await expect(auth.onError(apiError(401, 'UNAUTHORIZED'))).resolves.toMatchObject({ logout: true, redirectTo: '/login' });
    const placed = createAuthProvider({ http: fakeHttp().http, session: createSessionStore(memoryStorage()), cache: createSessionCache(), channel: null, ...ADDRESSES, signInAddress: () => '/admin/login?to=%2Fadmin%2Fjobs' });
    await expect(placed.onError(apiError(401, 'UNAUTHORIZED'))).resolves.toMatchObject({ logout: true, redirectTo: '/admin/login?to=%2Fadmin%2Fjobs' });
    await expect(placed.check()).resolves.toMatchObject({ authenticated: false, redirectTo: '/admin/login?to=%2Fadmin%2Fjobs' });
  });

  it.each([
    ['/de/admin/users/42', '?tab=sessions', '/admin/login?to=%2Fadmin%2Fusers%2F42%3Ftab%3Dsessions'],
    ['/admin/jobs', '', '/admin/login?to=%2Fadmin%2Fjobs'],
    ['/en/account/subscription', '', '/login?to=%2Faccount%2Fsubscription'],
  ])("the app's provider: a 401 on %s%s sends to %s (spec section 2: the admin login for admin paths)", async (path, search, expected) => {
    const { authProvider } = await import('../../providers/index.js');
    const before = `${window.location.pathname}${window.location.search}`;
    window.history.replaceState(null, '', `${path}${search}`);
    try {
      await expect(authProvider.onError(apiError(401, 'UNAUTHORIZED'))).resolves.toMatchObject({ logout: true, redirectTo: expected });
    } finally {
      window.history.replaceState(null, '', before);
    }
  });

  it.each(['INVALID_TWO_FACTOR_CODE', 'WRONG_PASSWORD', 'PASSKEY_VERIFICATION_FAILED'])('a 401 that refuses what the person typed (%s) does not log out (issue 44)', async (messageKey) => {
    const { auth } = setup();
    const result: { logout?: boolean } = await auth.onError(apiError(401, messageKey));
    expect(result.logout).toBeFalsy();
  });

  it('a 403 TWO_FACTOR_ENROLMENT_REQUIRED reads the user again and sends them to the security page (issue 44)', async () => {
    const { auth, calls, cache } = setup({ '/users/me': { ...ME, roles: ['user', 'admin'], twoFactorEnrolmentRequired: true } }, { token: FRESH });
    await expect(auth.onError(apiError(403, 'TWO_FACTOR_ENROLMENT_REQUIRED'))).resolves.toEqual({ redirectTo: '/account/security' });
    expect(callsTo(calls, '/users/me')).toHaveLength(1);
    expect(cache.user?.twoFactorEnrolmentRequired).toBe(true);
  });

  it('a 403 TWO_FACTOR_ENROLMENT_REQUIRED on the security page itself sends the tab nowhere: it would mount the page anew, to be refused again', async () => {
    const { http } = fakeHttp({ '/users/me': { ...ME, roles: ['user', 'admin'], twoFactorEnrolmentRequired: true } });
    const session = createSessionStore(memoryStorage());
    session.setToken(FRESH);
    const auth = createAuthProvider({ http, session, cache: createSessionCache(), channel: null, now: () => NOW_MS, ...ADDRESSES, currentPath: () => '/account/security' });
    await expect(auth.onError(apiError(403, 'TWO_FACTOR_ENROLMENT_REQUIRED'))).resolves.toEqual({});
  });

  it('a 403 does not log out', async () => {
    const { auth } = setup();
    const result: { logout?: boolean } = await auth.onError(apiError(403, 'FORBIDDEN'));
    expect(result.logout).toBeFalsy();
  });

  it('an error without a status does not log out', async () => {
    const { auth } = setup();
    const result: { logout?: boolean } = await auth.onError(new Error('network'));
    expect(result.logout).toBeFalsy();
  });
});

describe('getIdentity: the current user', () => {
  it('fetches /users/me once and then uses the cache', async () => {
    const { auth, calls } = setup({ '/users/me': ME }, { token: FRESH });
    await expect(auth.getIdentity()).resolves.toEqual(ME);
    await expect(auth.getIdentity()).resolves.toEqual(ME);
    expect(callsTo(calls, '/users/me')).toHaveLength(1);
  });

  it('a 401 from /users/me clears the session', async () => {
    const { auth, session } = setup(
      {
        '/users/me': () => {
          throw apiError(401, 'UNAUTHORIZED');
        },
      },
      { token: FRESH, offline: 'offline-1' },
    );
    await expect(auth.getIdentity()).resolves.toBeNull();
    expect(session.getToken()).toBeNull();
    expect(session.getOfflineToken()).toBeNull();
  });

  it('another failure of /users/me keeps the session', async () => {
    const { auth, session } = setup(
      {
        '/users/me': () => {
          throw apiError(500, 'DEFAULT');
        },
      },
      { token: FRESH },
    );
    await expect(auth.getIdentity()).resolves.toBeNull();
    expect(session.getToken()).toBe(FRESH);
  });

  it('without a valid session /users/me is not called', async () => {
    const { auth, calls } = setup({ '/users/me': ME });
    await expect(auth.getIdentity()).resolves.toBeNull();
    expect(calls).toEqual([]);
  });

  it('the cache is dropped on logout, so the next identity is fetched again', async () => {
    const { auth, calls, session } = setup({ '/users/me': ME }, { token: FRESH });
    await auth.getIdentity();
    await auth.logout();
    session.setToken(FRESH);
    await auth.getIdentity();
    expect(callsTo(calls, '/users/me')).toHaveLength(2);
  });

  it("getPermissions returns what the server says the current user's roles allow (issue 47)", async () => {
    const { auth } = setup({ '/users/me': { ...ME, roles: ['user', 'support'], permissions: ['users.read', 'users.viewAs'] } }, { token: FRESH });
    await expect(auth.getPermissions()).resolves.toEqual(['users.read', 'users.viewAs']);
  });
});

describe('listenToOtherTabs: cross-tab events (spec section 4)', () => {
  const opened: BroadcastChannel[] = [];
  function channel(): BroadcastChannel {
    const created = new BroadcastChannel('shapelab-auth-test');
    opened.push(created);
    return created;
  }

  afterEach(() => {
    for (const created of opened.splice(0)) created.close();
  });

  /** Resolves once `receiver` has seen one more message, so a test can tell "not delivered" from "not yet". */
  function nextMessage(receiver: BroadcastChannel): Promise<unknown> {
    return new Promise((resolve) => {
      receiver.addEventListener('message', (event) => resolve(event.data), { once: true });
    });
  }

  it('a logout announced in one tab calls onLogout in the other', async () => {
    const sender = channel();
    const receiver = channel();
    const handlers = { onLogout: vi.fn(), onLogin: vi.fn() };
    listenToOtherTabs(receiver, handlers);
    sender.postMessage({ type: 'logout' });
    await vi.waitFor(() => expect(handlers.onLogout).toHaveBeenCalledTimes(1));
    expect(handlers.onLogin).not.toHaveBeenCalled();
  });

  it('a login announced in one tab calls onLogin in the other', async () => {
    const sender = channel();
    const receiver = channel();
    const handlers = { onLogout: vi.fn(), onLogin: vi.fn() };
    listenToOtherTabs(receiver, handlers);
    sender.postMessage({ type: 'login' });
    await vi.waitFor(() => expect(handlers.onLogin).toHaveBeenCalledTimes(1));
    expect(handlers.onLogout).not.toHaveBeenCalled();
  });

  it('other messages are ignored', async () => {
    const sender = channel();
    const receiver = channel();
    const handlers = { onLogout: vi.fn(), onLogin: vi.fn() };
    listenToOtherTabs(receiver, handlers);
    const delivered = nextMessage(receiver);
    sender.postMessage({ type: 'something-else' });
    await delivered;
    expect(handlers.onLogout).not.toHaveBeenCalled();
    expect(handlers.onLogin).not.toHaveBeenCalled();
  });

  it('the returned function unsubscribes', async () => {
    const sender = channel();
    const receiver = channel();
    const handlers = { onLogout: vi.fn(), onLogin: vi.fn() };
    const unsubscribe = listenToOtherTabs(receiver, handlers);
    unsubscribe();
    const delivered = nextMessage(receiver);
    sender.postMessage({ type: 'logout' });
    await expect(delivered).resolves.toEqual({ type: 'logout' });
    expect(handlers.onLogout).not.toHaveBeenCalled();
  });

  it('a logout through the auth provider reaches the other tab', async () => {
    const receiver = channel();
    const handlers = { onLogout: vi.fn(), onLogin: vi.fn() };
    listenToOtherTabs(receiver, handlers);
    const auth = createAuthProvider({
      http: fakeHttp().http,
      session: createSessionStore(memoryStorage()),
      cache: createSessionCache(),
      channel: channel(),
      now: () => NOW_MS,
      ...ADDRESSES,
    });
    await auth.logout();
    await vi.waitFor(() => expect(handlers.onLogout).toHaveBeenCalledTimes(1));
  });
});

describe('a session leaves nothing behind in the tab (issue 44 item 8)', () => {
  const A = jwt(NOW_S + 3600, { sid: 'session-a', sub: 'u1' });
  const A_RENEWED = jwt(NOW_S + 7200, { sid: 'session-a', sub: 'u1' });
  const B = jwt(NOW_S + 3600, { sid: 'session-b', sub: 'u2' });
  const ME_B: Me = { ...ME, id: 'u2', email: 'b@example.com', roles: ['user', 'analyst'], permissions: ['analytics.read'] };
  const TAB_KEYS = Object.values(TAB_SESSION_KEYS);

  function fillTab(tabStorage: Storage) {
    for (const key of TAB_KEYS) tabStorage.setItem(key, 'kept for the session');
    tabStorage.setItem('locale', 'de');
  }

  it('logout empties every per-user store and the keys the tab kept for the session, but not the tab’s language', async () => {
    const { auth, cache, store, tabStorage } = setup({ '/auth/logout': null }, { token: A });
    cache.user = ME;
    fillTab(tabStorage);
    await auth.logout();
    expect(store.cleared).toBe(1);
    expect(cache.user).toBeNull();
    for (const key of TAB_KEYS) expect(tabStorage.getItem(key), key).toBeNull();
    expect(tabStorage.getItem('locale')).toBe('de');
  });

  it('a sign-in starts with empty stores, and keeps the checkout the visitor chose before signing in', async () => {
    const { auth, cache, store, tabStorage } = setup({ '/auth/login': { access_token: B } });
    cache.user = ME;
    tabStorage.setItem(TAB_SESSION_KEYS.storedCheckout, '{"type":"subscription"}');
    await auth.login({ email: 'b@example.com', password: 'secret123' });
    expect(store.cleared).toBeGreaterThanOrEqual(1);
    expect(cache.user).toBeNull();
    expect(tabStorage.getItem(TAB_SESSION_KEYS.storedCheckout)).toBe('{"type":"subscription"}');
  });

  it('a failed renewal ends the session with everything the tab kept for it', async () => {
    const { auth, store, tabStorage, session } = setup(
      {
        '/auth/validate': () => {
          throw apiError(401, 'INVALID_TOKEN');
        },
      },
      { token: EXPIRED, offline: 'offline-1' },
    );
    fillTab(tabStorage);
    await auth.check();
    expect(session.getToken()).toBeNull();
    expect(store.cleared).toBeGreaterThanOrEqual(1);
    for (const key of TAB_KEYS) expect(tabStorage.getItem(key), key).toBeNull();
  });

  it('another tab’s sign-out empties the stores and the tab’s keys; the tokens (shared) are the other tab’s to clear', async () => {
    const { auth, cache, store, tabStorage, session } = setup({}, { token: B });
    cache.user = ME;
    fillTab(tabStorage);
    auth.handleRemoteLogout();
    expect(store.cleared).toBe(1);
    expect(cache.user).toBeNull();
    for (const key of TAB_KEYS) expect(tabStorage.getItem(key), key).toBeNull();
    // A sign-in in another tab right after it stored these: they are not this tab's to remove.
    expect(session.getToken()).toBe(B);
  });

  it('another tab’s sign-in empties the stores: this tab starts over with the session stored now', () => {
    const { auth, cache, store, tabStorage } = setup({}, { token: B });
    cache.user = ME;
    fillTab(tabStorage);
    auth.handleRemoteLogin();
    expect(store.cleared).toBe(1);
    expect(cache.user).toBeNull();
    for (const key of TAB_KEYS) expect(tabStorage.getItem(key), key).toBeNull();
  });

  it('tokens replaced under the running app: the user read for the session before is not answered for the next', async () => {
    let tokenNow: () => string | null = () => null;
    const { auth, session, store } = setup({ '/users/me': () => (tokenNow() === B ? ME_B : ME) }, { token: A });
    tokenNow = () => session.getToken();
    await expect(auth.getIdentity()).resolves.toEqual(ME);
    const clearedForA = store.cleared;
    // Replaced by hand, or written by another tab.
    session.setToken(B);
    expect(auth.knownUser()).toBeNull();
    await expect(auth.getIdentity()).resolves.toEqual(ME_B);
    expect(store.cleared).toBe(clearedForA + 1);
    await expect(auth.getPermissions()).resolves.toEqual(ME_B.permissions);
  });

  it('a renewal keeps the session (its `sid`), and with it what the stores hold', async () => {
    const { auth, session, store, calls } = setup({ '/users/me': ME }, { token: A });
    await auth.getIdentity();
    const cleared = store.cleared;
    session.setToken(A_RENEWED);
    expect(auth.knownUser()).toEqual(ME);
    await expect(auth.getIdentity()).resolves.toEqual(ME);
    expect(store.cleared).toBe(cleared);
    expect(callsTo(calls, '/users/me')).toHaveLength(1);
  });

  it('a user read under way when the tokens change is not kept for the next session', async () => {
    let answerA: (user: Me) => void = () => undefined;
    let tokenNow: () => string | null = () => null;
    const { auth, session, cache } = setup(
      {
        '/users/me': () =>
          tokenNow() === A
            ? new Promise<Me>((resolve) => {
                answerA = resolve;
              })
            : ME_B,
      },
      { token: A },
    );
    tokenNow = () => session.getToken();
    const forA = auth.getIdentity();
    await vi.waitFor(() => expect(tokenNow()).toBe(A));
    session.setToken(B);
    const forB = auth.getIdentity();
    answerA(ME);
    await expect(forA).resolves.toBeNull();
    await expect(forB).resolves.toEqual(ME_B);
    expect(cache.user).toEqual(ME_B);
  });

  it('a refusal of a session the tab no longer holds (a call of the user before, answered late) signs nobody out', async () => {
    const { auth, session } = setup(
      {
        '/users/me': () => {
          throw { ...apiError(401, 'UNAUTHORIZED'), otherSession: true };
        },
      },
      { token: B, offline: 'offline-b' },
    );
    await expect(auth.onError({ ...apiError(401, 'UNAUTHORIZED'), otherSession: true })).resolves.toEqual({});
    await expect(auth.getIdentity()).resolves.toBeNull();
    expect(session.getToken()).toBe(B);
    expect(session.getOfflineToken()).toBe('offline-b');
  });

  it('tokens handed over in the address replace both tokens: a remembered session of the user before never renews into it', async () => {
    const { auth, session, cache, store, channel, calls, tabStorage } = setup({ '/auth/logout': null }, { token: A, offline: 'offline-a' });
    cache.user = ME;
    fillTab(tabStorage);
    await auth.adoptSession({ accessToken: B, offlineToken: null });
    expect(session.getToken()).toBe(B);
    expect(session.getOfflineToken()).toBeNull();
    expect(cache.user).toBeNull();
    expect(store.cleared).toBeGreaterThanOrEqual(1);
    for (const key of TAB_KEYS) expect(tabStorage.getItem(key), key).toBeNull();
    expect(channel.postMessage).toHaveBeenCalledExactlyOnceWith({ type: 'login' });
    // The session replaced, which nothing in the browser holds any more, ends on the server.
    expect(calls).toEqual([{ url: '/auth/logout', options: { method: 'POST', noAuth: true, bearer: A, body: { offlineToken: 'offline-a' } } }]);
  });

  it('tokens handed over for the session held (a renewed access token) keep it: nothing is emptied or ended', async () => {
    const { auth, session, cache, store, channel, calls } = setup({}, { token: A, offline: 'offline-a' });
    await auth.check();
    cache.user = ME;
    const cleared = store.cleared;
    await auth.adoptSession({ accessToken: A_RENEWED, offlineToken: 'offline-a' });
    expect(session.getToken()).toBe(A_RENEWED);
    expect(cache.user).toEqual(ME);
    expect(store.cleared).toBe(cleared);
    expect(channel.postMessage).not.toHaveBeenCalled();
    expect(callsTo(calls, '/auth/logout')).toEqual([]);
  });

  it('tokens handed over in a tab without a session start one, with nothing to end', async () => {
    const { auth, session, channel, calls } = setup({});
    await auth.adoptSession({ accessToken: B, offlineToken: 'offline-b' });
    expect([session.getToken(), session.getOfflineToken()]).toEqual([B, 'offline-b']);
    expect(channel.postMessage).toHaveBeenCalledExactlyOnceWith({ type: 'login' });
    expect(calls).toEqual([]);
  });
});

describe('the mailed verification link (issue 48 item 5)', () => {
  const B = jwt(NOW_S + 3600, { sid: 'session-b', sub: 'u2' });

  it('opened in the browser that asked for it, its token becomes the session, kept in the tab (the checkout chosen first)', async () => {
    const { auth, session, channel, tabStorage } = setup({ '/users/validate/link-token': { verified: true, access_token: B } });
    tabStorage.setItem(TAB_SESSION_KEYS.storedCheckout, '{"type":"subscription"}');
    await expect(auth.verifyEmailLink('link-token')).resolves.toEqual({ signedIn: true });
    expect([session.getToken(), session.getOfflineToken()]).toEqual([B, null]);
    expect(channel.postMessage).toHaveBeenCalledExactlyOnceWith({ type: 'login' });
    expect(tabStorage.getItem(TAB_SESSION_KEYS.storedCheckout)).toBe('{"type":"subscription"}');
  });

  it('opened anywhere else it only verifies: no session', async () => {
    const { auth, session, channel } = setup({ '/users/validate/link-token': { verified: true } });
    await expect(auth.verifyEmailLink('link-token')).resolves.toEqual({ signedIn: false });
    expect(session.getToken()).toBeNull();
    expect(channel.postMessage).not.toHaveBeenCalled();
  });
});

describe('sign-in in two steps (issue 44)', () => {
  const credentials = { email: 'user@example.com', password: 'secret123' };
  const CHALLENGE = { twoFactorRequired: true, challenge: 'challenge-1', methods: ['totp', 'recovery'] };

  it('an account with a second factor gets no session from the first step, but the step to answer, with remember me in it', async () => {
    const { auth, session, channel } = setup({ '/auth/login': CHALLENGE });
    const result = await auth.login({ ...credentials, rememberMe: true });
    expect(result).toEqual({ success: false, twoFactor: { challenge: 'challenge-1', methods: ['totp', 'recovery'], rememberMe: true, admin: false } });
    expect(session.getToken()).toBeNull();
    expect(channel.postMessage).not.toHaveBeenCalled();
  });

  it('the admin sign-in asks for it too (and never remembers the device)', async () => {
    const { auth } = setup({ '/auth/admin-login': { ...CHALLENGE, methods: ['passkey', 'recovery'] } });
    await expect(auth.login({ ...credentials, admin: true, rememberMe: true })).resolves.toEqual({
      success: false,
      twoFactor: { challenge: 'challenge-1', methods: ['passkey', 'recovery'], rememberMe: false, admin: true },
    });
  });

  it('the code answers the challenge at POST /auth/login/two-factor and starts the session; remember me keeps the offline token', async () => {
    const { auth, session, channel, calls } = setup({ '/auth/login/two-factor': { access_token: FRESH, offline_token: 'offline-1' } });
    const result = await auth.completeTwoFactor({ challenge: 'challenge-1', methods: ['totp'], rememberMe: true, admin: false }, { code: '123456' });
    expect(result).toEqual({ success: true });
    expect(calls).toEqual([{ url: '/auth/login/two-factor', options: { method: 'POST', noAuth: true, body: { challenge: 'challenge-1', code: '123456' } } }]);
    expect(session.getToken()).toBe(FRESH);
    expect(session.getOfflineToken()).toBe('offline-1');
    expect(channel.postMessage).toHaveBeenCalledExactlyOnceWith({ type: 'login' });
  });

  it('without remember me the offline token is not kept; a recovery code answers as the code does', async () => {
    const { auth, session, calls } = setup({ '/auth/login/two-factor': { access_token: FRESH, offline_token: 'offline-1' } }, { offline: 'offline-old' });
    await auth.completeTwoFactor({ challenge: 'challenge-1', methods: ['totp'], rememberMe: false, admin: false }, { recoveryCode: 'abcde12345' });
    expect(calls[0]?.options?.body).toEqual({ challenge: 'challenge-1', recoveryCode: 'abcde12345' });
    expect(session.getOfflineToken()).toBeNull();
  });

  it.each(['INVALID_TWO_FACTOR_CODE', 'TWO_FACTOR_CHALLENGE_EXPIRED', 'TOO_MANY_REQUESTS'])('a refusal (%s) is the messageKey, with no session', async (messageKey) => {
    const { auth, session } = setup({
      '/auth/login/two-factor': () => {
        throw apiError(401, messageKey);
      },
    });
    const result = await auth.completeTwoFactor({ challenge: 'challenge-1', methods: ['totp'], rememberMe: true, admin: false }, { code: '000000' });
    expect(result).toEqual({ success: false, error: { name: messageKey, message: messageKey } });
    expect(session.getToken()).toBeNull();
  });

  it('a passkey answers the second step with the options the challenge asks for', async () => {
    const options = { challenge: 'webauthn-challenge', allowCredentials: [] };
    const { auth, calls, session } = setup({ '/auth/login/two-factor/passkey': { options }, '/auth/login/two-factor': { access_token: FRESH } });
    const step = { challenge: 'challenge-1', methods: ['passkey' as const], rememberMe: false, admin: false };
    await expect(auth.twoFactorPasskeyOptions(step)).resolves.toEqual(options);
    await auth.completeTwoFactor(step, { passkey: { id: 'credential', response: {} } });
    expect(calls.map((call) => [call.url, call.options?.body])).toEqual([
      ['/auth/login/two-factor/passkey', { challenge: 'challenge-1' }],
      ['/auth/login/two-factor', { challenge: 'challenge-1', passkey: { id: 'credential', response: {} } }],
    ]);
    expect(session.getToken()).toBe(FRESH);
  });

  it('a Google or Facebook sign-in of an account with a second factor continues with the step, without a session', async () => {
    const { auth, session } = setup({ '/auth/google/redirect': CHALLENGE });
    const result = await auth.socialLogin({ provider: 'google', code: 'code', state: 'state', redirectUrl: 'http://localhost/google/redirect' });
    expect(result).toEqual({ success: false, twoFactor: { challenge: 'challenge-1', methods: ['totp', 'recovery'], rememberMe: false, admin: false } });
    expect(session.getToken()).toBeNull();
  });
});

describe('sign-in with a passkey alone (issue 44)', () => {
  it('asks for a ceremony, then signs in with the browser’s answer; remember me keeps the offline token', async () => {
    const { auth, calls, session, channel } = setup({
      '/auth/passkey/options': { ceremony: 'ceremony-1', options: { challenge: 'c' } },
      '/auth/passkey': { access_token: FRESH, offline_token: 'offline-1' },
    });
    await expect(auth.passkeySignInOptions()).resolves.toEqual({ ceremony: 'ceremony-1', options: { challenge: 'c' } });
    await expect(auth.passkeySignIn({ ceremony: 'ceremony-1', response: { id: 'credential' }, rememberMe: true, admin: false })).resolves.toEqual({ success: true });
    expect(calls.map((call) => [call.url, call.options])).toEqual([
      ['/auth/passkey/options', { method: 'POST', noAuth: true, body: {} }],
      ['/auth/passkey', { method: 'POST', noAuth: true, body: { ceremony: 'ceremony-1', response: { id: 'credential' }, rememberMe: true, admin: false } }],
    ]);
    expect(session.getOfflineToken()).toBe('offline-1');
    expect(channel.postMessage).toHaveBeenCalledExactlyOnceWith({ type: 'login' });
  });

  it('for the admin area it says so, and never remembers the device', async () => {
    const { auth, calls, session } = setup({ '/auth/passkey': { access_token: FRESH } });
    await auth.passkeySignIn({ ceremony: 'ceremony-1', response: { id: 'credential' }, rememberMe: true, admin: true });
    expect(calls[0]?.options?.body).toEqual({ ceremony: 'ceremony-1', response: { id: 'credential' }, rememberMe: false, admin: true });
    expect(session.getOfflineToken()).toBeNull();
  });

  it('a refused passkey is the messageKey, with no session', async () => {
    const { auth, session } = setup({
      '/auth/passkey': () => {
        throw apiError(401, 'PASSKEY_VERIFICATION_FAILED');
      },
    });
    await expect(auth.passkeySignIn({ ceremony: 'c', response: {}, rememberMe: false, admin: false })).resolves.toEqual({
      success: false,
      error: { name: 'PASSKEY_VERIFICATION_FAILED', message: 'PASSKEY_VERIFICATION_FAILED' },
    });
    expect(session.getToken()).toBeNull();
  });
});

describe('a visitor without a session keeps the checkout chosen before signing in (issue 44 item 8)', () => {
  it('neither the check of each navigation nor a failed social sign-in removes it', async () => {
    const { auth, tabStorage } = setup({
      '/auth/google/redirect': () => {
        throw apiError(401, 'SOCIAL_SIGN_IN_FAILED');
      },
    });
    tabStorage.setItem(TAB_SESSION_KEYS.storedCheckout, '{"type":"perpetual"}');
    await auth.check();
    await auth.socialLogin({ provider: 'google', code: 'code', state: 'state', redirectUrl: 'http://localhost/google/redirect' });
    await auth.logout();
    expect(tabStorage.getItem(TAB_SESSION_KEYS.storedCheckout)).toBe('{"type":"perpetual"}');
  });
});

describe("issue 47: a read-only view's tab", () => {
  it('takes the handed-over view apart from the shared session and tells no other tab, also when it ends', async () => {
    const shared = memoryStorage();
    const tab = memoryStorage();
    const session = createSessionStore(shared, () => undefined, tab);
    session.setToken(FRESH);
    const channel = { postMessage: vi.fn() };
    const view = jwt(NOW_S + 600);
    const { http, calls } = fakeHttp({ '/users/me': { ...ME, readOnlyView: { expiresAt: '2030-01-01T00:00:00.000Z' } }, '/auth/logout': null });
    const auth = createAuthProvider({ http, session, cache: createSessionCache(), channel, tabStorage: memoryStorage(), now: () => NOW_MS, ...ADDRESSES });
    auth.adoptReadOnlyView(view);
    expect(session.getToken()).toBe(view);
    expect((await auth.getIdentity())?.readOnlyView).not.toBeNull();
    await expect(auth.getPermissions()).resolves.toEqual([]);
    await auth.logout();
    expect(channel.postMessage).not.toHaveBeenCalled();
    // The view's own session ended on the server, with the view's token; the staff member's is untouched.
    expect(callsTo(calls, '/auth/logout')[0]?.options?.bearer).toBe(view);
    expect(shared.getItem(TOKEN_KEY)).toBe(FRESH);
  });
});
