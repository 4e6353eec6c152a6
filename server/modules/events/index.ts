import type { PortalModule } from '../../context.js';
import { eventRoutes } from './routes.js';

/**
 * The signed-in user's event stream (`GET /api/events`, server-sent events) and the bus that feeds it:
 * in-process on SQLite, PostgreSQL LISTEN/NOTIFY across instances.
 */
export const eventsModule: PortalModule = async (app, context) => {
  await app.register(eventRoutes, { bus: context.bus, streams: context.streams, guards: context.guards, heartbeatMs: context.eventHeartbeatMs });
};

export { ADMINS, EventBus, type Invalidation, type StreamControl, type StreamEvent } from './bus.js';
export { PostgresEventBus } from './postgres-bus.js';
export { StreamRegistry } from './streams.js';
