import type { Insertable, Kysely } from 'kysely';
import type { Database, RefreshTokensTable } from '../../db/schema.js';

/**
 * The offline ("remember me") tokens' SQL (`refresh_tokens`): stored as digests, grouped in families (a
 * token and its successors) that belong to a session. Each statement runs on `db`, the caller's
 * transaction when it passes one; single use is one conditional update (`claimRotation`).
 */

type Db = Kysely<Database>;

export async function insertToken(db: Db, token: Insertable<RefreshTokensTable>): Promise<void> {
  await db.insertInto('refresh_tokens').values(token).execute();
}

export async function tokenByHash(db: Db, tokenHash: string) {
  return db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Marks the token rotated at `at`; false when another renewal rotated it first. */
export async function claimRotation(db: Db, id: string, at: string): Promise<boolean> {
  const claimed = await db.updateTable('refresh_tokens').set({ rotated_at: at }).where('id', '=', id).where('rotated_at', 'is', null).executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}

/** The token's rotation and revocation as they are now (after a concurrent renewal won the claim). */
export async function rotationOf(db: Db, id: string) {
  return db.selectFrom('refresh_tokens').select(['rotated_at', 'revoked_at']).where('id', '=', id).executeTakeFirstOrThrow();
}

export async function revokeFamily(db: Db, familyId: string, at: string): Promise<void> {
  await db.updateTable('refresh_tokens').set({ revoked_at: at }).where('family_id', '=', familyId).where('revoked_at', 'is', null).execute();
}

export async function revokeSession(db: Db, sessionId: string, at: string): Promise<void> {
  await db.updateTable('refresh_tokens').set({ revoked_at: at }).where('session_id', '=', sessionId).where('revoked_at', 'is', null).execute();
}

/** Revokes the tokens of the given sessions (they ended), in the transaction that ended them. */
export async function revokeSessions(db: Db, sessionIds: string[], at: string): Promise<void> {
  await db.updateTable('refresh_tokens').set({ revoked_at: at }).where('session_id', 'in', sessionIds).where('revoked_at', 'is', null).execute();
}

/** Revokes every live token of the user but those of family `keepFamily` (when given). */
export async function revokeAllOfUser(db: Db, userId: string, at: string, keepFamily: string | undefined): Promise<void> {
  let query = db.updateTable('refresh_tokens').set({ revoked_at: at }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (keepFamily) query = query.where('family_id', '!=', keepFamily);
  await query.execute();
}
