import { sql, type Kysely, type Selectable } from 'kysely';
import type { Job, JobsQuery, JobsResponse } from '../../../contract/jobs.js';
import type { Clock } from '../../clock.js';
import type { Database, JobsTable } from '../../db/schema.js';
import { AppError } from '../../errors.js';

function toJob(row: Selectable<JobsTable>): Job {
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
  let rows = db.selectFrom('jobs');
  if (query.status) rows = rows.where('status', '=', query.status);
  const [data, total, counts] = await Promise.all([
    rows
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(query.skip ?? 0)
      .limit(query.take ?? 25)
      .execute(),
    rows.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    db
      .selectFrom('jobs')
      .select(['status', sql<number>`count(*)`.as('n')])
      .where('status', 'in', ['pending', 'running', 'failed'])
      .groupBy('status')
      .execute(),
  ]);
  const byStatus = { pending: 0, running: 0, failed: 0 };
  for (const row of counts) byStatus[row.status as keyof typeof byStatus] = Number(row.n);
  return { data: data.map(toJob), total: Number(total.n), counts: byStatus };
}

/**
 * A failed job gets its tries again, due now (after the cause was mended: a mail server back, a Paddle
 * key fixed). It runs without its key (released when it failed), so a newer job holding that key is
 * never blocked by it; the handlers are safe to run again (they read the state they act on).
 */
export async function retryJob(db: Kysely<Database>, clock: Clock, id: string): Promise<Job> {
  const row = await db
    .updateTable('jobs')
    .set({ status: 'pending', attempts: 0, run_at: clock.now().toISOString(), finished_at: null, locked_until: null, locked_by: null })
    .where('id', '=', id)
    .where('status', '=', 'failed')
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new AppError('JOB_NOT_RETRYABLE', 409);
  return toJob(row);
}
