import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * The user's first download of the desktop application, kept on the account (the admin users table's
 * 'downloaded' date); the releases module records every download and calls this in the same transaction.
 */
export async function markFirstDownload(db: Kysely<Database> | Transaction<Database>, userId: string, at: string): Promise<void> {
  await db.updateTable('users').set({ downloaded_at: at }).where('id', '=', userId).where('downloaded_at', 'is', null).execute();
}

/** The user's last launch of the desktop application (the admin grid's column), from a heartbeat. */
export async function markLaunched(db: Kysely<Database> | Transaction<Database>, userId: string, at: string): Promise<void> {
  await db.updateTable('users').set({ last_launched_at: at }).where('id', '=', userId).execute();
}
