import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { digest } from '../../digest.js';
import { AppError } from '../../errors.js';

export const OFFLINE_TOKEN_TTL_DAYS = 30;
/**
 * Two tabs that wake up together both renew with the same offline token. A second use within this window
 * gets its own successor instead of being treated as theft; after it, reuse ends the whole session.
 */
const ROTATION_GRACE_MS = 20_000;

/** A rotated token used again outside the grace: whose, which session, and the request that used it. */
export interface TokenReuse {
  userId: string;
  sessionId: string;
  client: { userAgent: string | null; address: string | null };
}

/**
 * "Remember me" tokens: opaque, stored only as a SHA-256 digest, single use (rotated on every renewal).
 * Reusing a rotated token outside the grace window is taken for theft: what `whenReused` was given (the
 * sessions: the whole session ends and its owner is mailed) runs, then the renewal is refused.
 */
export class OfflineTokens {
  /** Until the sessions say otherwise (server/app.ts wires them), a reuse revokes its session's tokens. */
  private onReuse: (reuse: TokenReuse) => Promise<void> = (reuse) => this.revokeSessionIn(this.db, reuse.sessionId);

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  /** What a reuse outside the grace does (set once, by the sessions). */
  whenReused(handler: (reuse: TokenReuse) => Promise<void>): void {
    this.onReuse = handler;
  }

  /** A new token of a session's family, expiring with the session (issue 17: offline tokens belong to their session). */
  async issue(
    userId: string,
    session: { sessionId: string; expiresAt: Date },
    familyId: string = randomUUID(),
    db: Kysely<Database> = this.db,
  ): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    await db
      .insertInto('refresh_tokens')
      .values({
        id: randomUUID(),
        user_id: userId,
        token_hash: digest(token),
        family_id: familyId,
        created_at: now.toISOString(),
        expires_at: new Date(Math.min(now.getTime() + OFFLINE_TOKEN_TTL_DAYS * 86_400_000, session.expiresAt.getTime())).toISOString(),
        rotated_at: null,
        revoked_at: null,
        session_id: session.sessionId,
      })
      .execute();
    return token;
  }

  /**
   * Exchanges a valid offline token for its successor; returns the owner, its session and the new token.
   * `client` is the renewing request's, named in the owner's mail should this be a reuse.
   */
  async rotate(token: string, client: TokenReuse['client'] = { userAgent: null, address: null }): Promise<{ userId: string; sessionId: string; token: string }> {
    const now = this.clock.now();
    const outcome = await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('refresh_tokens')
        .selectAll()
        .where('token_hash', '=', digest(token))
        .executeTakeFirst();
      if (!row || row.revoked_at !== null || row.session_id === null) throw new AppError('INVALID_TOKEN', 401);
      if (new Date(row.expires_at) <= now) throw new AppError('SESSION_EXPIRED', 401);

      let rotatedAt = row.rotated_at;
      if (rotatedAt === null) {
        const claimed = await trx
          .updateTable('refresh_tokens')
          .set({ rotated_at: now.toISOString() })
          .where('id', '=', row.id)
          .where('rotated_at', 'is', null)
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) !== 1) {
          // A concurrent renewal (another tab) rotated it between our read and our update: read its outcome.
          const current = await trx
            .selectFrom('refresh_tokens')
            .select(['rotated_at', 'revoked_at'])
            .where('id', '=', row.id)
            .executeTakeFirstOrThrow();
          if (current.revoked_at !== null) throw new AppError('INVALID_TOKEN', 401);
          rotatedAt = current.rotated_at;
        }
      }
      if (rotatedAt !== null && now.getTime() - new Date(rotatedAt).getTime() > ROTATION_GRACE_MS) {
        return { reused: true as const, userId: row.user_id, sessionId: row.session_id };
      }
      const successor = await this.issue(row.user_id, { sessionId: row.session_id, expiresAt: new Date(row.expires_at) }, row.family_id, trx);
      return { reused: false as const, userId: row.user_id, sessionId: row.session_id, token: successor };
    });
    if (outcome.reused) {
      // The session ends in a transaction of its own: throwing inside the one above would roll it back.
      await this.onReuse({ userId: outcome.userId, sessionId: outcome.sessionId, client });
      throw new AppError('INVALID_TOKEN', 401);
    }
    return { userId: outcome.userId, sessionId: outcome.sessionId, token: outcome.token };
  }

  /** Logout: the token and every token of its family stop working. Unknown tokens are ignored. */
  async revoke(token: string): Promise<{ userId: string; sessionId: string | null } | null> {
    const row = await this.db
      .selectFrom('refresh_tokens')
      .select(['family_id', 'user_id', 'session_id'])
      .where('token_hash', '=', digest(token))
      .executeTakeFirst();
    if (!row) return null;
    await this.revokeFamilyIn(this.db, row.family_id);
    return { userId: row.user_id, sessionId: row.session_id };
  }

  /**
   * Ends every remembered session of a user (password change or reset), except the family of
   * `keepToken` when given; returns that family's fresh successor.
   */
  async revokeAllForUser(userId: string, keepToken?: string): Promise<string | undefined> {
    let keptFamily: string | undefined;
    if (keepToken) {
      const row = await this.db
        .selectFrom('refresh_tokens')
        .select(['family_id', 'user_id', 'revoked_at'])
        .where('token_hash', '=', digest(keepToken))
        .executeTakeFirst();
      if (row && row.user_id === userId && row.revoked_at === null) keptFamily = row.family_id;
    }
    let query = this.db
      .updateTable('refresh_tokens')
      .set({ revoked_at: this.clock.now().toISOString() })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null);
    if (keptFamily) query = query.where('family_id', '!=', keptFamily);
    await query.execute();
    return keptFamily && keepToken ? (await this.rotate(keepToken)).token : undefined;
  }

  private async revokeSessionIn(db: Kysely<Database>, sessionId: string): Promise<void> {
    await db
      .updateTable('refresh_tokens')
      .set({ revoked_at: this.clock.now().toISOString() })
      .where('session_id', '=', sessionId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  private async revokeFamilyIn(db: Kysely<Database>, familyId: string): Promise<void> {
    await db
      .updateTable('refresh_tokens')
      .set({ revoked_at: this.clock.now().toISOString() })
      .where('family_id', '=', familyId)
      .where('revoked_at', 'is', null)
      .execute();
  }
}
