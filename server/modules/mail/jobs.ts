import { z } from 'zod';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { enqueue, type JobHandler } from '../jobs/index.js';
import type { Mailer } from './mailer.js';
import type { RenderedMail } from './templates.js';

export const MAIL_JOB = 'mail';

const mailPayloadSchema = z.object({
  to: z.string(),
  mail: z.object({ subject: z.string(), text: z.string(), html: z.string() }),
});

/**
 * Queues a rendered mail in the caller's transaction (transactional outbox): it goes out once the change
 * that caused it has committed, from whichever instance's worker claims it, and never if that change
 * is rolled back. Returns the job's id.
 */
export async function queueMail(
  db: Kysely<Database> | Transaction<Database>,
  now: Date,
  to: string,
  mail: RenderedMail,
  options: { heldForRequest?: boolean } = {},
): Promise<string> {
  const id = await enqueue(db, now, { kind: MAIL_JOB, payload: { to, mail }, ...options });
  if (!id) throw new Error('a mail job without a key cannot collide');
  return id;
}

/** Sends a queued mail; the job's id makes a second run write (outbox) or mark (SMTP) the same mail. */
export function mailJob(mailer: Mailer): JobHandler {
  return async (payload, context) => {
    const { to, mail } = mailPayloadSchema.parse(payload);
    await mailer.send(to, mail, { jobId: context.id });
  };
}
