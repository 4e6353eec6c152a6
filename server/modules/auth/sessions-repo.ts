import type { Insertable, Kysely } from 'kysely';
import type { Database, SessionsTable } from '../../db/schema.js';
import type { EndReason } from './sessions.js';

/**
 * The sessions' SQL (`sessions`, issue 17). Each statement runs on `db`, which is the caller's transaction
 * when it passes one. The per-request read of a session with its user is the users module's compiled query
 * (server/modules/users/repo.ts, findWithSession): one statement for the guard, by design.
 */

type Db = Kysely<Database>;

export async function insertSession(db: Db, session: Insertable<SessionsTable>): Promise<void> {
  await db.insertInto('sessions').values(session).execute();
}

/**
 * Whether the account has had a session before, and one from `family` active since `since`: one query,
 * two index probes (sessions_user_idx, sessions_client_idx). SQLite answers 0 or 1, PostgreSQL a boolean.
 */
export async function clientHistory(db: Db, userId: string, family: string, since: string): Promise<{ signedInBefore: boolean; usedLately: boolean }> {
  // A staff member's read-only view (issue 47) is no sign-in of the owner's.
  const seen = await db
    .selectNoFrom((eb) => [
      eb.exists(eb.selectFrom('sessions').select('id').where('user_id', '=', userId).where('viewed_by', 'is', null)).as('signedInBefore'),
      eb
        .exists(
          eb
            .selectFrom('sessions')
            .select('id')
            .where('user_id', '=', userId)
            .where('client_family', '=', family)
            .where('last_active_at', '>=', since)
            .where('viewed_by', 'is', null),
        )
        .as('usedLately'),
    ])
    .executeTakeFirstOrThrow();
  return { signedInBefore: Boolean(Number(seen.signedInBefore)), usedLately: Boolean(Number(seen.usedLately)) };
}

/** The user's session with this id, ended or not. */
export async function sessionOf(db: Db, sessionId: string, userId: string) {
  return db.selectFrom('sessions').select(['id', 'expires_at', 'ended_at']).where('id', '=', sessionId).where('user_id', '=', userId).executeTakeFirst();
}

/** When the session started; undefined when there is no such session. */
export async function sessionStartedAt(db: Db, sessionId: string): Promise<string | undefined> {
  return (await db.selectFrom('sessions').select('created_at').where('id', '=', sessionId).executeTakeFirst())?.created_at;
}

/** Where the session was started from (its browser, system and address), for the owner's mail. */
export async function sessionClientOf(db: Db, sessionId: string) {
  return db.selectFrom('sessions').select(['browser', 'os', 'address']).where('id', '=', sessionId).executeTakeFirstOrThrow();
}

export async function setLastActive(db: Db, sessionId: string, at: string): Promise<void> {
  await db.updateTable('sessions').set({ last_active_at: at }).where('id', '=', sessionId).execute();
}

/**
 * Ends the user's live sessions (only `only` when given; all but `except` when given) in one conditional
 * update; returns the ids it ended, so a session ends once however many requests end it at once.
 */
export async function endLiveSessions(db: Db, userId: string, reason: EndReason, at: string, only: string | null, except: string | null): Promise<string[]> {
  let query = db.updateTable('sessions').set({ ended_at: at, ended_reason: reason }).where('user_id', '=', userId).where('ended_at', 'is', null);
  if (only) query = query.where('id', '=', only);
  if (except) query = query.where('id', '!=', except);
  return (await query.returning('id').execute()).map((row) => row.id);
}

/**
 * Issue 47: ends the live read-only views a staff member opened (their roles no longer allow it); returns each
 * ended view with its account, so their streams close.
 */
export async function endViewsBy(db: Db, staffId: string, at: string): Promise<{ id: string; user_id: string }[]> {
  return db
    .updateTable('sessions')
    .set({ ended_at: at, ended_reason: 'view-revoked' })
    .where('viewed_by', '=', staffId)
    .where('ended_at', 'is', null)
    .returning(['id', 'user_id'])
    .execute();
}

/** The user's live sessions at `now`, most recently active first (ties by id). */
export async function liveSessionsOf(db: Db, userId: string, now: string) {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('ended_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('last_active_at', 'desc')
    .orderBy('id')
    .execute();
}

/** Every session of the account, ended ones too, as the data export gives them (issue 17; GDPR article 20). */
export async function sessionRecordsOf(db: Db, userId: string) {
  return db
    .selectFrom('sessions')
    .select(['id', 'method', 'second_factor', 'created_at', 'last_active_at', 'expires_at', 'ended_at', 'ended_reason', 'browser', 'os', 'address'])
    .where('user_id', '=', userId)
    .execute();
}
