import { splitLocale } from '../contract/locale.js';
import { signInAddressFor } from '../src/routing/guard.js';
import { createAccountApi } from './accountApi.js';
import { AUTH_CHANNEL, createAuthProvider } from './authProvider.js';
import { createSessionCache } from './cache.js';
import { http, session, sessionRenewal } from './http.js';

/**
 * The session providers, wired once: one HTTP client, one session store, one cache, one channel.
 * The data and access-control providers are built with <Refine> in src/refine.ts (signed-in pages only).
 */
export const cache = createSessionCache();
export const authChannel: BroadcastChannel | null =
  typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(AUTH_CHANNEL);
export const authProvider = createAuthProvider({
  http,
  session,
  cache,
  channel: authChannel,
  tabStorage: typeof sessionStorage === 'undefined' ? null : sessionStorage,
  signInAddress: () => {
    const { path } = splitLocale(window.location.pathname);
    return signInAddressFor(path, `${path}${window.location.search}`);
  },
  currentPath: () => splitLocale(window.location.pathname).path,
});
sessionRenewal.renew = () => authProvider.renewSession();
export const accountApi = createAccountApi(http);
export { http, session };
/**
 * For pages that use nothing else of the providers. Importing http.ts on its own would make the bundler
 * split it from this module's chunk, which every route loads, into one more request for all of them.
 */
export { messageKeyOf } from './http.js';
