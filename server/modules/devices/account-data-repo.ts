import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** How many seats (activated computers) the account holds; in the caller's transaction when it passes one. */
export async function seatCountOf(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await db.selectFrom('seats').select((eb) => eb.fn.countAll<number | string>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The account's seats as stored, without their token digests (the data export, issue 17; GDPR article 20). */
export async function seatRecordsOf(db: Kysely<Database>, userId: string) {
  return db.selectFrom('seats').select(['id', 'name', 'computer_id', 'activated_at', 'last_login_at', 'channel']).where('user_id', '=', userId).execute();
}
