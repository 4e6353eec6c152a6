import type { PortalModule } from '../../context.js';
import { deviceRoutes } from './routes.js';

/**
 * The user's seats (the computers using their entitlements) and the desktop API the application calls:
 * activation, heartbeats, and reports of sessions and exports. It owns the seats table (repo.ts); the seat
 * limit comes from the entitlements, and billing reaches `releaseSeatsAboveLimit` through its port.
 */
export const devicesModule: PortalModule = async (app, context) => {
  await app.register(deviceRoutes, {
    deps: { db: context.db.kysely, dialect: context.db.dialect, clock: context.clock, bus: context.bus, entitlements: context.entitlements },
    guards: context.guards,
  });
};

export { releaseSeat, releaseSeatsAboveLimit, seatsOf, type DeviceDeps } from './service.js';
export { seatCountOf, seatRecordsOf } from './account-data-repo.js';
