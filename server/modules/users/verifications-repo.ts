import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { recordActivity } from '../activity/index.js';

/** Email verification codes and links, stored as digests, one pending verification per user. */
export class VerificationsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async replace(
    row: { userId: string; codeHash: string; linkHash: string; browserHash: string | null; expiresAt: string; createdAt: string },
    within?: Transaction<Database>,
  ) {
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
          browser_hash: row.browserHash,
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
