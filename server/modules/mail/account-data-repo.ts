import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** Removes the mail kept in the outbox for an address (an account's deletion), in the caller's transaction. */
export async function forgetMailTo(db: Kysely<Database>, address: string): Promise<void> {
  await db.deleteFrom('outbox').where('to_address', '=', address).execute();
}
