import { createAccessControlProvider } from './accessControlProvider.js';
import { AUTH_CHANNEL, createAuthProvider } from './authProvider.js';
import { createSessionCache } from './cache.js';
import { createDataProvider } from './dataProvider.js';
import { http, messages, session } from './http.js';

/** The app's providers, wired once: one HTTP client, one session store, one cache, one channel. */
export const cache = createSessionCache();
export const authChannel: BroadcastChannel | null =
  typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(AUTH_CHANNEL);
export const authProvider = createAuthProvider({ http, session, cache, channel: authChannel });
export const dataProvider = createDataProvider(http);
export const accessControlProvider = createAccessControlProvider(async () => {
  const roles = await authProvider.getPermissions();
  return roles;
});
export { http, messages, session };
