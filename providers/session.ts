import { jwtDecode } from 'jwt-decode';
import { hasSessionHint, SESSION_HINT_COOKIE } from '../contract/session-hint.js';

/**
 * The session kept in the browser (spec sections 3 and 4): the access token and, only with
 * "remember me", the offline token, both in localStorage so every tab shares them.
 */
export const TOKEN_KEY = 'token';
export const OFFLINE_TOKEN_KEY = 'offlineToken';

/**
 * What a tab keeps in its sessionStorage for the session it holds, removed when that session ends (issue 44
 * item 8): the profile-redirect flag (spec section 2, allowAll), the checkout a visitor chose before signing
 * in or up, and a signed-in checkout's Humble Bundle code. The UI language stays: it is the tab's choice,
 * not the user's.
 */
export const TAB_SESSION_KEYS = {
  profileFlag: 'redirectToProfile',
  storedCheckout: 'storedCheckout',
  humbleBundle: 'humbleBundleCheckout',
} as const;

/**
 * The server session an access token belongs to: its `sid` claim (issue 17), which a renewal keeps and every
 * sign-in makes anew. A token that does not say (not a JWT) stands for a session of its own. Null for none.
 */
export function sessionIdOf(token: string | null): string | null {
  if (token === null || isBlank(token)) return null;
  try {
    const { sid } = jwtDecode<{ sid?: unknown }>(token);
    return typeof sid === 'string' && sid !== '' ? sid : token;
  } catch {
    return token;
  }
}

/** Empty, null, undefined or whitespace-only counts as no token (spec section 4). */
export function isBlank(value: unknown): boolean {
  return typeof value !== 'string' || value.trim() === '';
}

/**
 * Issue 47: a tab opened as a staff member's read-only view of a customer's account keeps the view's token
 * here, in its own sessionStorage, and is that view for the rest of its life (the key stays, emptied, once
 * the view has ended). The staff member's own session, in localStorage, is never read, written or ended by it.
 */
export const VIEW_TOKEN_KEY = 'readOnlyViewToken';

export interface SessionStore {
  getToken(): string | null;
  setToken(token: string): void;
  getOfflineToken(): string | null;
  setOfflineToken(token: string | null): void;
  isAuthenticated(): boolean;
  clear(): void;
  /** Issue 47: this tab holds a read-only view of someone's account (or held one, now ended). */
  isReadOnlyView(): boolean;
  /** Issue 47: the tab becomes a read-only view with this token; the browser's shared session stays as it is. */
  enterReadOnlyView(token: string): void;
}

/**
 * The session store over a Web Storage. `onChange` hears whether a session is held after every change
 * (the browser's store keeps the session-hint cookie in step, contract/session-hint.ts). With the tab's own
 * storage (`tab`), a tab that holds a read-only view (issue 47) keeps that view's token there instead: it has
 * no offline token, shares nothing with the other tabs, and its end leaves the shared session alone.
 */
export function createSessionStore(storage: Storage, onChange: (held: boolean) => void = () => undefined, tab: Storage | null = null): SessionStore {
  const read = (from: Storage, key: string) => {
    const value = from.getItem(key);
    return isBlank(value) ? null : value;
  };
  const changed = () => onChange(read(storage, TOKEN_KEY) !== null || read(storage, OFFLINE_TOKEN_KEY) !== null);
  const viewing = (): Storage | null => (tab !== null && tab.getItem(VIEW_TOKEN_KEY) !== null ? tab : null);
  return {
    getToken: () => {
      const view = viewing();
      return view ? read(view, VIEW_TOKEN_KEY) : read(storage, TOKEN_KEY);
    },
    setToken: (token) => {
      const view = viewing();
      if (view) return view.setItem(VIEW_TOKEN_KEY, token);
      storage.setItem(TOKEN_KEY, token);
      changed();
    },
    getOfflineToken: () => (viewing() ? null : read(storage, OFFLINE_TOKEN_KEY)),
    setOfflineToken: (token) => {
      if (viewing()) return;
      if (isBlank(token)) storage.removeItem(OFFLINE_TOKEN_KEY);
      else storage.setItem(OFFLINE_TOKEN_KEY, token as string);
      changed();
    },
    isAuthenticated: () => {
      const view = viewing();
      return (view ? read(view, VIEW_TOKEN_KEY) : read(storage, TOKEN_KEY)) !== null;
    },
    clear: () => {
      const view = viewing();
      if (view) return view.setItem(VIEW_TOKEN_KEY, '');
      storage.removeItem(TOKEN_KEY);
      storage.removeItem(OFFLINE_TOKEN_KEY);
      changed();
    },
    isReadOnlyView: () => viewing() !== null,
    enterReadOnlyView: (token) => tab?.setItem(VIEW_TOKEN_KEY, token),
  };
}

/** Sets or removes the session-hint cookie (contract/session-hint.ts) in this browser. */
export function writeSessionHint(held: boolean): void {
  // Reading the cookie is cheap; writing one is a round trip to the browser's cookie store.
  if (typeof document === 'undefined' || hasSessionHint(document.cookie) === held) return;
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${SESSION_HINT_COOKIE}=${held ? '1' : ''}; Path=/; SameSite=Lax; Max-Age=${held ? 31_536_000 : 0}${secure}`;
}

/** A Map-backed Web Storage, where the browser's is missing (server-side tools, tests). */
export function createMemoryStorage(initial: Record<string, string> = {}): Storage {
  const data = new Map<string, string>(Object.entries(initial));
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (key) => data.get(key) ?? null,
    key: (index) => [...data.keys()][index] ?? null,
    removeItem: (key) => void data.delete(key),
    setItem: (key, value) => void data.set(key, String(value)),
  };
}
