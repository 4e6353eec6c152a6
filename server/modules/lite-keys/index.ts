import type { PortalModule } from '../../context.js';
import { liteKeyRoutes } from './routes.js';

/** Shapelab Lite keys: imported by admins, listed and exported while unused, claimed once. */
export const liteKeysModule: PortalModule = async (app, context) => {
  await app.register(liteKeyRoutes, { deps: { db: context.db.kysely, dialect: context.db.dialect, clock: context.clock, bus: context.bus }, guards: context.guards });
};

export { claimLiteKey, type LiteKeyDeps } from './service.js';
export { liteKeyRecordsOf, liteKeysForSupport } from './account-data-repo.js';
