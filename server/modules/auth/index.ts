import type { PortalModule } from '../../context.js';
import { twoFactorDepsOf } from '../two-factor/index.js';
import { signInRoutes } from './sign-in-routes.js';
import { sessionRoutes } from './session-routes.js';

/**
 * Who is calling: sign-in (password, the admin door), access and offline tokens, server-side sessions and
 * the user's view of them, sign-out, and the database-kept counters that limit guessing. The second step
 * of a sign-in is the two-factor module's; Google and Facebook are the oauth module's. Its tables are
 * `sessions`, `refresh_tokens` (offline tokens) and `throttles`; other modules reach them through the
 * Sessions, OfflineTokens and Throttle built once in the context, or the functions exported here.
 */
export const authModule: PortalModule = async (app, context) => {
  const twoFactor = twoFactorDepsOf(context);
  await app.register(signInRoutes, {
    deps: { users: context.users, offlineTokens: context.offlineTokens, throttle: context.throttle, sessions: context.sessions, twoFactor },
    guards: context.guards,
  });
  await app.register(sessionRoutes, { sessions: context.sessions, guards: context.guards, db: context.db.kysely });
};

export { AccessTokens, type AccessClaims } from './access-tokens.js';
export { OfflineTokens } from './offline-tokens.js';
export { describeClient, Sessions, VIEW_TTL_MS, type EndReason, type SessionClient, type SignInMethod } from './sessions.js';
export { Throttle, type ThrottleRule } from './throttle.js';
export { sessionRecordsOf } from './sessions-repo.js';
