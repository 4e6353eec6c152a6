import { isMovable } from '../../clock.js';
import type { PortalModule } from '../../context.js';
import { devChargebackRoutes, devClockRoutes, devOutboxRoutes } from './routes.js';

/**
 * Development helpers under /api/dev: the mail outbox, the movable clock and, with the offline Paddle
 * stand-in, a bank's chargeback. Never in production (the tests prove they are absent there).
 */
export const devModule: PortalModule = async (app, context) => {
  if (context.config.nodeEnv === 'production') return;
  if (context.config.mailTransport === 'outbox') await app.register(devOutboxRoutes, { db: context.db.kysely, jobs: context.jobs });
  if (isMovable(context.clock)) await app.register(devClockRoutes, { clock: context.clock });
  const billing = context.config.billing;
  if (billing.sandbox && billing.environment) {
    await app.register(devChargebackRoutes, { standin: { baseUrl: billing.environment, apiKey: billing.apiKey }, guards: context.guards });
  }
};
