/**
 * The session kept in the browser (spec sections 3 and 4): the access token and, only with
 * "remember me", the offline token, both in localStorage so every tab shares them.
 */
export const TOKEN_KEY = 'token';
export const OFFLINE_TOKEN_KEY = 'offlineToken';

/** Empty, null, undefined or whitespace-only counts as no token (spec section 4). */
export function isBlank(value: unknown): boolean {
  return typeof value !== 'string' || value.trim() === '';
}

export interface SessionStore {
  getToken(): string | null;
  setToken(token: string): void;
  getOfflineToken(): string | null;
  setOfflineToken(token: string | null): void;
  isAuthenticated(): boolean;
  clear(): void;
}

export function createSessionStore(storage: Storage): SessionStore {
  const read = (key: string) => {
    const value = storage.getItem(key);
    return isBlank(value) ? null : value;
  };
  return {
    getToken: () => read(TOKEN_KEY),
    setToken: (token) => storage.setItem(TOKEN_KEY, token),
    getOfflineToken: () => read(OFFLINE_TOKEN_KEY),
    setOfflineToken: (token) => {
      if (isBlank(token)) storage.removeItem(OFFLINE_TOKEN_KEY);
      else storage.setItem(OFFLINE_TOKEN_KEY, token as string);
    },
    isAuthenticated: () => read(TOKEN_KEY) !== null,
    clear: () => {
      storage.removeItem(TOKEN_KEY);
      storage.removeItem(OFFLINE_TOKEN_KEY);
    },
  };
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
