import type { Me } from '../contract/users.js';

/**
 * What the tab keeps in memory for the signed-in user (spec section 4, issue 44 item 8): the current user,
 * and the stores the signed-in frame adds as it loads (Refine's query cache with the answers put in before
 * the first screen, the live event stream). All of it belongs to one server session, and all of it goes
 * when a session starts, changes or ends, so that the next user of the tab sees nothing of the last one.
 */
export interface SessionCache {
  /** The signed-in user, as `GET /users/me` answered for `session`. */
  user: Me | null;
  /** The server session (the access token's `sid`) whose data the stores hold; null once emptied. */
  session: string | null;
  /** Adds a store of the signed-in user's data that `clear` empties too; returns its removal. */
  add(clear: () => void): () => void;
  /** Empties the user and every store added. */
  clear(): void;
  /**
   * The stores are about to be read or filled for `session`: unless they are that session's already, they
   * are emptied first (they may hold another session's data: tokens handed over, or replaced in another tab
   * or by hand). True when they were.
   */
  claim(session: string | null): boolean;
}

export function createSessionCache(): SessionCache {
  const stores = new Set<() => void>();
  const cache: SessionCache = {
    user: null,
    session: null,
    add(clear) {
      stores.add(clear);
      return () => void stores.delete(clear);
    },
    clear() {
      cache.user = null;
      cache.session = null;
      for (const clear of [...stores]) clear();
    },
    claim(session) {
      if (cache.session === session) return false;
      cache.clear();
      cache.session = session;
      return true;
    },
  };
  return cache;
}
