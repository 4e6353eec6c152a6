import type { PortalModule } from '../../context.js';
import { overviewRoutes } from './routes.js';

/**
 * The account home (`GET /users/me/overview`): a read model over users, billing, licensing, entitlements
 * and devices, so none of those depends on another for it.
 */
export const overviewModule: PortalModule = async (app, context) => {
  await app.register(overviewRoutes, {
    deps: { db: context.db.kysely, paddle: context.paddle, clock: context.clock, refunds: context.refunds, bus: context.bus, entitlements: context.entitlements },
    guards: context.guards,
  });
};
