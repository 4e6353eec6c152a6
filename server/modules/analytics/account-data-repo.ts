import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** The raw usage rows the desktop application reported for the account (the data export, issue 17; GDPR article 20). */
export async function usageRecordsOf(db: Kysely<Database>, userId: string) {
  const [sessions, exports, launches] = await Promise.all([
    db.selectFrom('analytics_sessions').selectAll().where('user_id', '=', userId).execute(),
    db.selectFrom('analytics_exports').selectAll().where('user_id', '=', userId).execute(),
    db.selectFrom('analytics_launches').selectAll().where('user_id', '=', userId).execute(),
  ]);
  return { sessions, exports, launches };
}
