import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { RenderedMail } from './templates.js';

/**
 * The outbox table: where mail goes without an SMTP server (development and tests), read back by the
 * development mailbox (`GET /api/dev/outbox`, the dev module).
 */

/** Writes a mail; a job's mail is written once however often the job runs (`job_id` is unique). */
export async function insertOutboxMail(db: Kysely<Database>, input: { to: string; mail: RenderedMail; createdAt: string; jobId: string | null }): Promise<void> {
  await db
    .insertInto('outbox')
    .values({ to_address: input.to, ...input.mail, created_at: input.createdAt, job_id: input.jobId })
    .onConflict((oc) => oc.column('job_id').doNothing())
    .execute();
}

/** The 50 newest mails to `address` (as stored: addresses are normalised before mail is queued). */
export async function outboxMailsTo(db: Kysely<Database>, address: string): Promise<{ to: string; subject: string; text: string; html: string; createdAt: string }[]> {
  const rows = await db
    .selectFrom('outbox')
    .select(['to_address', 'subject', 'text', 'html', 'created_at'])
    .where('to_address', '=', address)
    .orderBy('id', 'desc')
    .limit(50)
    .execute();
  return rows.map((row) => ({ to: row.to_address, subject: row.subject, text: row.text, html: row.html, createdAt: row.created_at }));
}
