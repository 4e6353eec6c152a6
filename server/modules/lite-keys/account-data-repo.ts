import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** The Lite keys the account claimed, as stored (the data export, issue 17; GDPR article 20). */
export async function liteKeyRecordsOf(db: Kysely<Database>, userId: string) {
  return db.selectFrom('lite_keys').select(['key', 'channel', 'claimed_at']).where('claimed_by', '=', userId).execute();
}

/** The Lite keys the account claimed as support lists them (the admin user page), newest first. */
export async function liteKeysForSupport(db: Kysely<Database>, userId: string) {
  return db.selectFrom('lite_keys').select(['key', 'channel', 'claimed_at']).where('claimed_by', '=', userId).orderBy('claimed_at', 'desc').execute();
}
