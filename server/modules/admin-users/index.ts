import type { PortalModule } from '../../context.js';
import { registrationDepsOf } from '../users/index.js';
import { adminActionRoutes } from './action-routes.js';
import { auditRoutes } from './audit-routes.js';
import { usersGridRoutes } from './grid-routes.js';
import { userPageRoutes } from './user-page-routes.js';

/**
 * The admin area's users: the grid (search, filters, sort, export, bulk actions, role changes and
 * deletions), and one account as support sees it (its page, audit and timeline) with the actions taken
 * from there. A read model and a set of staff actions over users, auth, billing, licensing, coupons, Lite
 * keys and devices, asked through their faces; it has no table of its own (the admin audit trail is the
 * activity log's entries of admin kinds). Issue 47: every route names the permission it needs; support views
 * an account as its owner (a read-only session, auth's), and the audit log of every staff action (activity's
 * `audit_log`) is read and exported here.
 */
export const adminUsersModule: PortalModule = async (app, context) => {
  const admin = { db: context.db.kysely, dialect: context.db.dialect, clock: context.clock, bus: context.bus, sessions: context.sessions };
  await app.register(usersGridRoutes, { admin, guards: context.guards });
  await app.register(userPageRoutes, { admin, guards: context.guards, sessions: context.sessions });
  await app.register(adminActionRoutes, {
    deps: {
      db: context.db.kysely,
      sessions: context.sessions,
      registration: registrationDepsOf(context),
      billing: { db: context.db.kysely, paddle: context.paddle, clock: context.clock, refunds: context.refunds, bus: context.bus },
      devices: admin,
      users: context.users,
    },
    guards: context.guards,
  });
  await app.register(auditRoutes, { deps: { db: context.db.kysely, users: context.users, clock: context.clock }, guards: context.guards });
};

/** The CSV's walk over the directory, batch by batch (tests drive it with small batches). */
export { exportBatches } from '../users/index.js';
