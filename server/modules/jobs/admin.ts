import type { Kysely } from 'kysely';
import type { Job, JobsQuery, JobsResponse } from '../../../contract/jobs.js';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { recordStaffAction, type StaffActor } from '../activity/index.js';
import { countJobsByStatus, jobsPage, resetFailedJob, type JobRow } from './repo.js';

function toJob(row: JobRow): Job {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    attempts: Number(row.attempts),
    maxAttempts: Number(row.max_attempts),
    runAt: new Date(row.run_at).toISOString(),
    createdAt: new Date(row.created_at).toISOString(),
    finishedAt: row.finished_at ? new Date(row.finished_at).toISOString() : null,
    lastError: row.last_error,
  };
}

/** Jobs newest first, optionally of one status, with the counts of what waits and what failed. */
export async function listJobs(db: Kysely<Database>, query: JobsQuery): Promise<JobsResponse> {
  const [page, counts] = await Promise.all([jobsPage(db, { status: query.status, skip: query.skip ?? 0, take: query.take ?? 25 }), countJobsByStatus(db)]);
  const byStatus = { pending: 0, running: 0, failed: 0 };
  for (const row of counts) byStatus[row.status as keyof typeof byStatus] = Number(row.n);
  return { data: page.rows.map(toJob), total: page.total, counts: byStatus };
}

/**
 * A failed job gets its tries again, due now (after the cause was mended: a mail server back, a Paddle
 * key fixed). It runs without its key (released when it failed), so a newer job holding that key is
 * never blocked by it; the handlers are safe to run again (they read the state they act on).
 */
export async function retryJob(db: Kysely<Database>, clock: Clock, id: string, staff: StaffActor): Promise<Job> {
  const now = clock.now();
  const row = await db.transaction().execute(async (trx) => {
    const reset = await resetFailedJob(trx, id, now.toISOString());
    if (!reset) throw new AppError('JOB_NOT_RETRYABLE', 409);
    // Issue 47: the audit log keeps who sent it again (a job may send mail or refund money).
    await recordStaffAction(trx, { actor: staff, action: 'job.retried', subjectId: null, details: { jobId: id, kind: reset.kind }, at: now });
    return reset;
  });
  return toJob(row);
}
