import { isMovable } from '../../clock.js';
import type { PortalModule } from '../../context.js';
import { devClockRoutes, devOutboxRoutes } from './routes.js';

/**
 * Development helpers under /api/dev: the mail outbox and the movable clock. Never in production (the
 * tests prove they are absent there).
 */
export const devModule: PortalModule = async (app, context) => {
  if (context.config.nodeEnv === 'production') return;
  if (context.config.mailTransport === 'outbox') await app.register(devOutboxRoutes, { db: context.db.kysely, jobs: context.jobs });
  if (isMovable(context.clock)) await app.register(devClockRoutes, { clock: context.clock });
};
