import type { PortalModule } from '../../context.js';
import { registrationDepsOf } from '../users/index.js';
import { adminActionRoutes } from './action-routes.js';
import { usersGridRoutes } from './grid-routes.js';
import { adminUsersRoutes } from './routes.js';

/**
 * The admin area's users: the list (search, filters, sort, export, bulk actions), role changes and
 * deletions with their audit, and one account as support sees it with the actions taken from there. A
 * read model and a set of staff actions over users, auth, billing and devices.
 */
export const adminUsersModule: PortalModule = async (app, context) => {
  const admin = { db: context.db.kysely, dialect: context.db.dialect, clock: context.clock, bus: context.bus };
  await app.register(adminUsersRoutes, { admin, guards: context.guards, sessions: context.sessions });
  await app.register(usersGridRoutes, { admin, guards: context.guards });
  await app.register(adminActionRoutes, {
    deps: {
      db: context.db.kysely,
      sessions: context.sessions,
      registration: registrationDepsOf(context),
      billing: { db: context.db.kysely, paddle: context.paddle, clock: context.clock, refunds: context.refunds },
      devices: admin,
    },
    guards: context.guards,
  });
};

export { exportBatches } from './csv-export.js';
