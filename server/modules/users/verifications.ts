import { timingSafeEqual } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { recordActivity } from '../activity/index.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors.js';

/** A code dies after this many wrong tries (a new one comes with a resend or a new request). */
export const MAX_CODE_ATTEMPTS = 5;

interface PendingCode {
  code_hash: string;
  attempts: number;
  expires_at: string | Date;
  used_at: string | Date | null;
}

/**
 * The one rule for a mailed 6-digit code, registration's and a change of address's alike: unknown or used
 * answers INVALID_VERIFICATION_CODE, expired or worn out by MAX_CODE_ATTEMPTS wrong tries answers
 * VERIFICATION_CODE_EXPIRED, and a wrong code counts (`countFailure`) before it answers. Compared in
 * constant time. Returns when the code is right.
 */
export async function checkCode(
  pending: PendingCode | undefined,
  givenHash: string,
  now: Date,
  countFailure: () => Promise<number>,
): Promise<void> {
  if (!pending || pending.used_at !== null) throw new AppError('INVALID_VERIFICATION_CODE', 400);
  if (pending.attempts >= MAX_CODE_ATTEMPTS || new Date(pending.expires_at) <= now) throw new AppError('VERIFICATION_CODE_EXPIRED', 400);
  if (!timingSafeEqual(Buffer.from(pending.code_hash, 'hex'), Buffer.from(givenHash, 'hex'))) {
    const attempts = await countFailure();
    throw new AppError(attempts >= MAX_CODE_ATTEMPTS ? 'VERIFICATION_CODE_EXPIRED' : 'INVALID_VERIFICATION_CODE', 400);
  }
}


/** Email verification codes and links, stored as digests, one pending verification per user. */
export class VerificationsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async replace(row: { userId: string; codeHash: string; linkHash: string; expiresAt: string; createdAt: string }, within?: Transaction<Database>) {
    const write = async (trx: Transaction<Database>) => {
      await trx.deleteFrom('email_verifications').where('user_id', '=', row.userId).execute();
      await trx
        .insertInto('email_verifications')
        .values({
          user_id: row.userId,
          code_hash: row.codeHash,
          link_hash: row.linkHash,
          attempts: 0,
          expires_at: row.expiresAt,
          used_at: null,
          created_at: row.createdAt,
        })
        .execute();
    };
    if (within) await write(within);
    else await this.db.transaction().execute(write);
  }

  forUser(userId: string) {
    return this.db.selectFrom('email_verifications').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  forLink(linkHash: string) {
    return this.db.selectFrom('email_verifications').selectAll().where('link_hash', '=', linkHash).executeTakeFirst();
  }

  /** Counts a wrong code; returns the attempts so far. */
  async countFailure(userId: string): Promise<number> {
    const row = await this.db
      .updateTable('email_verifications')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('user_id', '=', userId)
      .returning('attempts')
      .executeTakeFirst();
    return Number(row?.attempts ?? 0);
  }

  /** Marks the account verified and the verification used, in one transaction; false if it was used already. */
  async complete(userId: string, at: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const used = await trx
        .updateTable('email_verifications')
        .set({ used_at: at })
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      if (Number(used.numUpdatedRows) !== 1) return false;
      await trx.updateTable('users').set({ email_verified_at: at, updated_at: at }).where('id', '=', userId).execute();
      await recordActivity(trx, { userId, kind: 'email.verified', at });
      return true;
    });
  }
}

/** Pending changes of sign-in address (issue 20 item 7): one per user, the code stored as a digest. */
export class EmailChangesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async replace(trx: Transaction<Database>, row: { userId: string; newEmail: string; codeHash: string; expiresAt: string; createdAt: string }) {
    await trx.deleteFrom('email_changes').where('user_id', '=', row.userId).execute();
    await trx
      .insertInto('email_changes')
      .values({
        user_id: row.userId,
        new_email: row.newEmail,
        code_hash: row.codeHash,
        attempts: 0,
        expires_at: row.expiresAt,
        used_at: null,
        created_at: row.createdAt,
      })
      .execute();
  }

  async discard(trx: Transaction<Database>, userId: string) {
    await trx.deleteFrom('email_changes').where('user_id', '=', userId).execute();
  }

  forUser(userId: string) {
    return this.db.selectFrom('email_changes').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  async countFailure(userId: string): Promise<number> {
    const row = await this.db
      .updateTable('email_changes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('user_id', '=', userId)
      .returning('attempts')
      .executeTakeFirst();
    return Number(row?.attempts ?? 0);
  }

  /** Marks the change used inside `trx`; false when another request used it first (two confirms at once). */
  async claim(trx: Transaction<Database>, userId: string, at: string): Promise<boolean> {
    const used = await trx
      .updateTable('email_changes')
      .set({ used_at: at })
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(used.numUpdatedRows) === 1;
  }
}
