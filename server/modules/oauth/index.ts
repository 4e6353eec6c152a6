import type { PortalModule } from '../../context.js';
import { twoFactorDepsOf } from '../two-factor/index.js';
import { oauthRoutes } from './routes.js';

/**
 * Google and Facebook: sign-in (with the second step where the account has one), connect and disconnect,
 * over openid-client; outside production, local stand-ins of both providers.
 */
export const oauthModule: PortalModule = async (app, context) => {
  await app.register(oauthRoutes, {
    deps: {
      db: context.db.kysely,
      users: context.users,
      sessions: context.sessions,
      clock: context.clock,
      social: context.config.social,
      appUrl: context.config.appUrl,
      twoFactor: twoFactorDepsOf(context),
      billingFacts: context.billingFacts,
    },
    guards: context.guards,
  });
};

export { startSocialStandins } from './standins/index.js';
export type { TestIdentity } from './standins/pages.js';
export { socialAccountsOf } from './repo.js';
