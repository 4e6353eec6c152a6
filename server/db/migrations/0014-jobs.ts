import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../index.js';
import { timestampType } from './types.js';

/**
 * Durable background work (issue 19): what happens after an answer (mail, refunds at Paddle, a second
 * trial ended, ...) is a row written in the transaction that decided it, and a worker in every instance
 * claims due rows (PostgreSQL: `FOR UPDATE SKIP LOCKED`) under a lease, so a process killed after its
 * answer loses nothing: the lease runs out and another instance takes the job.
 *
 * `key` makes a job unique while it is pending or running (released when it ends), so deciding the
 * same work twice queues it once. The outbox remembers the job that wrote each mail: a job run again
 * after a crash between writing the mail and marking itself done does not write it twice.
 */
export function jobs(dialect: Dialect): Migration {
  const ts = timestampType(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        /** JSON; emptied when the job is done (it may hold an address, a code or a link). */
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.unique())
        /** 'pending' | 'running' | 'done' | 'failed' */
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('max_attempts', 'integer', (c) => c.notNull())
        .addColumn('run_at', ts, (c) => c.notNull())
        .addColumn('locked_until', ts)
        .addColumn('locked_by', 'text')
        .addColumn('last_error', 'text')
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('finished_at', ts)
        .execute();
      await db.schema.createIndex('jobs_due_idx').on('jobs').columns(['status', 'run_at']).execute();
      await db.schema.createIndex('jobs_created_idx').on('jobs').columns(['created_at', 'id']).execute();
      await db.schema.alterTable('outbox').addColumn('job_id', 'text').execute();
      await db.schema.createIndex('outbox_job_idx').on('outbox').column('job_id').unique().execute();
      // Refunds decided before this migration are carried out by jobs from now on.
      await sql`insert into jobs (id, kind, payload, key, status, attempts, max_attempts, run_at, created_at)
        select 'refund-' || id, 'refund', '{"refundId":"' || id || '"}', 'refund:' || id, 'pending', 0, 6, created_at, created_at
        from refunds where status = 'pending'`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('outbox_job_idx').execute();
      await db.schema.alterTable('outbox').dropColumn('job_id').execute();
      await db.schema.dropTable('jobs').execute();
    },
  };
}
