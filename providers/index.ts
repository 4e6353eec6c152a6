import { splitLocale } from '../contract/locale.js';
import { signInAddressFor } from '../src/routing/guard.js';
import { paths } from '../src/routing/paths.js';
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
  signInPath: paths.login,
  enrolmentPath: paths.security,
  currentPath: () => splitLocale(window.location.pathname).path,
});
sessionRenewal.renew = () => authProvider.renewSession();
export const accountApi = createAccountApi(http);
export { http, session };
/**
 * What a failure says (./errors.ts), for the public pages beside the account client. The signed-in pages,
 * which may not import this module, take it from ./errors.ts itself (both are in the chunk every route loads).
 */
export { errorText, messageKeyOf } from './errors.js';
