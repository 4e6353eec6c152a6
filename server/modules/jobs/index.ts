import type { PortalModule } from '../../context.js';
import { jobRoutes } from './routes.js';

/**
 * Durable work after the answer: a row in `jobs` written in the transaction of the change that causes it,
 * claimed by any instance's worker, retried with backoff. The admin's view of the queue is its routes.
 */
export const jobsModule: PortalModule = async (app, context) => {
  await app.register(jobRoutes, { db: context.db.kysely, clock: context.clock, guards: context.guards });
};

export { enqueue, isPermanent, JobQueue, retryDelayMs, type JobContext, type JobHandler, type NewJob } from './queue.js';
