import { sql, type ExpressionBuilder, type Insertable, type Kysely, type Selectable, type SelectQueryBuilder, type Transaction } from 'kysely';
import type { JobStatus } from '../../../contract/jobs.js';
import type { Database, JobsTable } from '../../db/schema.js';

/**
 * The job queue's SQL: the `jobs` table is the queue (./queue.ts runs it, ./admin.ts shows it to admins).
 * A job moves pending → running (claimed under a lease by one instance) → done or failed, or back to
 * pending for a retry; every move of a claimed job names the instance holding it (`locked_by`), so an
 * instance whose lease ran out cannot overwrite the outcome of the one that took the job over.
 */

type Db = Kysely<Database> | Transaction<Database>;
export type JobRow = Selectable<JobsTable>;

/** The ids of jobs to claim, as one sub-select of the claiming UPDATE. */
export type JobCandidates = SelectQueryBuilder<Database, 'jobs', { id: string }>;

/** Due: pending and its time has come, or running past its lease (the instance that took it is gone). */
const isDue = (nowIso: string) => (eb: ExpressionBuilder<Database, 'jobs'>) =>
  eb.or([eb.and([eb('status', '=', 'pending'), eb('run_at', '<=', nowIso)]), eb.and([eb('status', '=', 'running'), eb('locked_until', '<', nowIso)])]);

/** Inserts a job unless one with the same key is pending or running (the key's unique index); true when inserted. */
export async function insertJob(db: Db, job: Insertable<JobsTable>): Promise<boolean> {
  const result = await db
    .insertInto('jobs')
    .values(job)
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** The job `id` while it is pending. */
export function pendingJobWithId(db: Kysely<Database>, id: string): JobCandidates {
  return db.selectFrom('jobs').select('id').where('id', '=', id).where('status', '=', 'pending');
}

/** The pending job holding `key`. */
export function pendingJobWithKey(db: Kysely<Database>, key: string): JobCandidates {
  return db.selectFrom('jobs').select('id').where('key', '=', key).where('status', '=', 'pending');
}

/**
 * Up to `limit` due jobs, oldest due first, leaving out the ids in `excluding`. With `skipLocked`
 * (PostgreSQL) the rows are locked `FOR UPDATE SKIP LOCKED`: two instances never claim one job and never
 * wait on each other.
 */
export function dueJobs(db: Kysely<Database>, input: { nowIso: string; limit: number; excluding: string[]; skipLocked: boolean }): JobCandidates {
  let candidates = db
    .selectFrom('jobs')
    .select('id')
    .where(isDue(input.nowIso))
    .orderBy('run_at')
    .limit(input.limit);
  if (input.excluding.length > 0) candidates = candidates.where('id', 'not in', input.excluding);
  if (input.skipLocked) candidates = candidates.forUpdate().skipLocked();
  return candidates;
}

/** Claims the `candidates` for an instance in one statement: running, under a lease, the attempt counted. */
export async function claimJobs(db: Kysely<Database>, candidates: JobCandidates, claim: { instanceId: string; leaseEnds: string }): Promise<JobRow[]> {
  return db
    .updateTable('jobs')
    .set((eb) => ({ status: 'running', attempts: eb('attempts', '+', 1), locked_until: claim.leaseEnds, locked_by: claim.instanceId }))
    .where('id', 'in', candidates)
    .returningAll()
    .execute();
}

/** Whether any job is due. */
export async function hasDueJob(db: Kysely<Database>, nowIso: string): Promise<boolean> {
  const row = await db
    .selectFrom('jobs')
    .select('id')
    .where(isDue(nowIso))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Done, if `instanceId` still holds it: the key is free again, and the payload (an address, a code, a link) is not kept. */
export async function markJobDone(db: Db, input: { id: string; instanceId: string; finishedAt: string }): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ status: 'done', key: null, locked_until: null, last_error: null, finished_at: input.finishedAt, payload: '{}' })
    .where('id', '=', input.id)
    .where('locked_by', '=', input.instanceId)
    .execute();
}

/** Failed for good, if `instanceId` still holds it: kept for an admin, its key free again. */
export async function markJobFailed(db: Db, input: { id: string; instanceId: string; lastError: string; finishedAt: string }): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ status: 'failed', key: null, locked_until: null, last_error: input.lastError, finished_at: input.finishedAt })
    .where('id', '=', input.id)
    .where('locked_by', '=', input.instanceId)
    .execute();
}

/** Pending again from `runAt` (a retry), if `instanceId` still holds it; the key stays with it. */
export async function scheduleJobRetry(db: Db, input: { id: string; instanceId: string; lastError: string; runAt: string }): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ status: 'pending', locked_until: null, last_error: input.lastError, run_at: input.runAt })
    .where('id', '=', input.id)
    .where('locked_by', '=', input.instanceId)
    .execute();
}

/** A failed job pending again from `runAt` with its tries back, without its lease; undefined unless it had failed. */
export async function resetFailedJob(db: Kysely<Database>, id: string, runAt: string): Promise<JobRow | undefined> {
  return db
    .updateTable('jobs')
    .set({ status: 'pending', attempts: 0, run_at: runAt, finished_at: null, locked_until: null, locked_by: null })
    .where('id', '=', id)
    .where('status', '=', 'failed')
    .returningAll()
    .executeTakeFirst();
}

export async function deleteJob(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('jobs').where('id', '=', id).execute();
}

/** Deletes the jobs done or failed before `before`. */
export async function deleteFinishedJobs(db: Kysely<Database>, before: string): Promise<void> {
  await db.deleteFrom('jobs').where('status', 'in', ['done', 'failed']).where('finished_at', '<', before).execute();
}

/** How many jobs wait, run and failed (the statuses without a job are absent). */
export async function countJobsByStatus(db: Kysely<Database>): Promise<{ status: string; n: number }[]> {
  return db
    .selectFrom('jobs')
    .select(['status', sql<number>`count(*)`.as('n')])
    .where('status', 'in', ['pending', 'running', 'failed'])
    .groupBy('status')
    .execute();
}

/** A page of jobs, newest first, optionally of one status, and how many there are in all. */
export async function jobsPage(db: Kysely<Database>, query: { status?: JobStatus | undefined; skip: number; take: number }): Promise<{ rows: JobRow[]; total: number }> {
  let rows = db.selectFrom('jobs');
  if (query.status) rows = rows.where('status', '=', query.status);
  const [data, total] = await Promise.all([
    rows
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(query.skip)
      .limit(query.take)
      .execute(),
    rows.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: data, total: Number(total.n) };
}
