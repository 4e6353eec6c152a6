import type { Transaction } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/schema.js';
import { ADMINS } from '../events/index.js';
import { enqueue, type JobHandler, type JobQueue } from '../jobs/index.js';
import { SIGNED_UP_JOB } from '../users/index.js';
import { recordReports, type AnalyticsDeps } from './ingest.js';
import type { Report } from './report.js';

/** Sales a webhook recorded, counted for the dashboard after its answer. */
export const SALES_JOB = 'analytics-sales';

const signedUpSchema = z.object({ userId: z.string(), at: z.iso.datetime() });
const salesSchema = z.object({
  sales: z.array(z.object({ userId: z.string(), id: z.string(), channel: z.string(), at: z.iso.datetime() })),
});

/** Queues the sales of a payment in the webhook's transaction: counted once the payment is stored, never without it. */
export async function queueSales(trx: Transaction<Database>, now: Date, sales: Extract<Report, { kind: 'sale' }>[]): Promise<void> {
  await enqueue(trx, now, { kind: SALES_JOB, payload: { sales: sales.map((sale) => ({ userId: sale.userId, id: sale.id, channel: sale.channel, at: sale.at.toISOString() })) } });
}

/**
 * Counts reports in the job's own transaction, which also ends the job (a retry after a crash cannot
 * count them twice), then tells the admins' dashboards.
 */
function recording(deps: AnalyticsDeps, jobs: JobQueue, reportsOf: (payload: unknown) => Report[]): JobHandler {
  return async (payload, context) => {
    const reports = reportsOf(payload);
    const { live } = await deps.db.transaction().execute(async (trx) => {
      const recorded = await recordReports(trx, deps.dialect, reports, deps.clock.now());
      await context.markDone(trx);
      return recorded;
    });
    for (const event of live) deps.bus.publish(ADMINS, event);
    jobs.nudge();
  };
}

/**
 * The analytics fan-out (issue 19): sign-ups (queued by the users repository with the new account) and
 * sales (queued by the payment webhook) reach the rollups through jobs, not through calls from those modules.
 */
export function registerAnalyticsJobs(jobs: JobQueue, deps: AnalyticsDeps): void {
  jobs.handle(
    SIGNED_UP_JOB,
    recording(deps, jobs, (payload) => {
      const { userId, at } = signedUpSchema.parse(payload);
      return [{ kind: 'signup', userId, at: new Date(at) }];
    }),
  );
  jobs.handle(
    SALES_JOB,
    recording(deps, jobs, (payload) => salesSchema.parse(payload).sales.map((sale) => ({ kind: 'sale' as const, ...sale, at: new Date(sale.at) }))),
  );
}
