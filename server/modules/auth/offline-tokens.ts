import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { digest } from '../../digest.js';
import { AppError } from '../../errors.js';
import * as repo from './offline-tokens-repo.js';

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
  private onReuse: (reuse: TokenReuse) => Promise<void> = (reuse) => repo.revokeSession(this.db, reuse.sessionId, this.clock.now().toISOString());

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
    await repo.insertToken(db, {
      id: randomUUID(),
      user_id: userId,
      token_hash: digest(token),
      family_id: familyId,
      created_at: now.toISOString(),
      expires_at: new Date(Math.min(now.getTime() + OFFLINE_TOKEN_TTL_DAYS * 86_400_000, session.expiresAt.getTime())).toISOString(),
      rotated_at: null,
      revoked_at: null,
      session_id: session.sessionId,
    });
    return token;
  }

  /**
   * Exchanges a valid offline token for its successor; returns the owner, its session and the new token.
   * `client` is the renewing request's, named in the owner's mail should this be a reuse.
   */
  async rotate(token: string, client: TokenReuse['client'] = { userAgent: null, address: null }): Promise<{ userId: string; sessionId: string; token: string }> {
    const now = this.clock.now();
    const outcome = await this.db.transaction().execute(async (trx) => {
      const row = await repo.tokenByHash(trx, digest(token));
      if (!row || row.revoked_at !== null || row.session_id === null) throw new AppError('INVALID_TOKEN', 401);
      if (new Date(row.expires_at) <= now) throw new AppError('SESSION_EXPIRED', 401);

      let rotatedAt = row.rotated_at;
      if (rotatedAt === null) {
        if (!(await repo.claimRotation(trx, row.id, now.toISOString()))) {
          // A concurrent renewal (another tab) rotated it between our read and our update: read its outcome.
          const current = await repo.rotationOf(trx, row.id);
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
    const row = await repo.tokenByHash(this.db, digest(token));
    if (!row) return null;
    await repo.revokeFamily(this.db, row.family_id, this.clock.now().toISOString());
    return { userId: row.user_id, sessionId: row.session_id };
  }

  /**
   * Ends every remembered session of a user (password change or reset), except the family of
   * `keepToken` when given; returns that family's fresh successor.
   */
  async revokeAllForUser(userId: string, keepToken?: string): Promise<string | undefined> {
    let keptFamily: string | undefined;
    if (keepToken) {
      const row = await repo.tokenByHash(this.db, digest(keepToken));
      if (row && row.user_id === userId && row.revoked_at === null) keptFamily = row.family_id;
    }
    await repo.revokeAllOfUser(this.db, userId, this.clock.now().toISOString(), keptFamily);
    return keptFamily && keepToken ? (await this.rotate(keepToken)).token : undefined;
  }
}
