import type { PortalModule } from '../../context.js';
import { privacyRoutes } from './routes.js';

/**
 * The user's own data (GDPR articles 17 and 20): deleting the account (its subscription cancelled at
 * Paddle, its personal rows gone, payments kept anonymous) and exporting everything it holds.
 */
export const privacyModule: PortalModule = async (app, context) => {
  await app.register(privacyRoutes, {
    deps: { db: context.db.kysely, paddle: context.paddle, clock: context.clock, sessions: context.sessions, throttle: context.throttle, jobs: context.jobs, bus: context.bus, users: context.users },
    guards: context.guards,
  });
};
