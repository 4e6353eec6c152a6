import type { Me } from '../contract/users.js';

/**
 * In-memory caches of what the app fetches on navigation (spec section 4): the current user now, and the
 * subscription and licence lists once billing exists. All of it is dropped on logout.
 */
export interface SessionCache {
  user: Me | null;
  clear(): void;
}

export function createSessionCache(): SessionCache {
  const cache: SessionCache = {
    user: null,
    clear() {
      cache.user = null;
    },
  };
  return cache;
}
