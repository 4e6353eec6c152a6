import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** The account's licences as stored (the data export, issue 17; GDPR article 20). */
export async function licenceRecordsOf(db: Kysely<Database>, userId: string) {
  return db.selectFrom('licences').selectAll().where('user_id', '=', userId).execute();
}

/** The account's licences as support lists them (the admin user page), newest grant first, revoked ones too. */
export async function licencesForSupport(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('licences')
    .select(['id', 'source', 'edition', 'release', 'updates_until', 'granted_at', 'revoked_at'])
    .where('user_id', '=', userId)
    .orderBy('granted_at', 'desc')
    .execute();
}
