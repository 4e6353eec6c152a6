import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** The account's downloads of the desktop application as stored (the data export, issue 17; GDPR article 20). */
export async function downloadsOf(db: Kysely<Database>, userId: string) {
  return db.selectFrom('downloads').selectAll().where('user_id', '=', userId).execute();
}
