import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { normalizeEmail } from '../../../contract/email.js';
import { outboxMailsTo } from '../mail/index.js';

/** The development mailbox: mails to one address, newest first (the mail module's outbox). */
export async function listOutbox(db: Kysely<Database>, to: string) {
  return outboxMailsTo(db, normalizeEmail(to));
}
