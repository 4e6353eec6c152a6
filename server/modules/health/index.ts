import type { PortalModule } from '../../context.js';
import { healthRoutes } from './routes.js';

/** Liveness and readiness for load balancers (`/api/health`, `/api/health/ready`). */
export const healthModule: PortalModule = async (app, context) => {
  await app.register(healthRoutes, { db: context.db, readiness: context.readiness });
};

export { Readiness, type NotReadyReason } from './readiness.js';
