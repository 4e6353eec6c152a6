import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { normalizeEmail } from '../../../contract/email.js';

/** The development mailbox: mails to one address, newest first. */
export async function listOutbox(db: Kysely<Database>, to: string) {
  const rows = await db
    .selectFrom('outbox')
    .select(['to_address', 'subject', 'text', 'html', 'created_at'])
    .where('to_address', '=', normalizeEmail(to))
    .orderBy('id', 'desc')
    .limit(50)
    .execute();
  return rows.map((row) => ({ to: row.to_address, subject: row.subject, text: row.text, html: row.html, createdAt: row.created_at }));
}
