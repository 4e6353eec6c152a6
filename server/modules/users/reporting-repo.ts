import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';

/*
 * What the analytics module reads of accounts while it takes in reports (analytics/ingest.ts): it holds the
 * users' rows so two reports of one user apply one after the other, and reads when each signed up.
 */

/** PostgreSQL: locks the users' rows (ids sorted by the caller), so two reports of one user apply one after the other. */
export async function lockAccountsForReports(trx: Transaction<Database>, userIds: string[]): Promise<void> {
  await trx.selectFrom('users').select('id').where('id', 'in', userIds).orderBy('id').forUpdate().execute();
}

/** When each of the users signed up (their account's creation); a user deleted meanwhile is absent. */
export async function signupsOf(trx: Transaction<Database>, userIds: string[]): Promise<{ id: string; created_at: string }[]> {
  return trx.selectFrom('users').select(['id', 'created_at']).where('id', 'in', userIds).execute();
}
