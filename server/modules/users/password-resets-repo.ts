import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';

/** Password reset links (spec section 4), stored as digests; single use, several may be pending per user. */
export class PasswordResetsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Keeps a new link, in the transaction that queues its mail. */
  async insert(trx: Transaction<Database>, row: { id: string; userId: string; tokenHash: string; expiresAt: string; createdAt: string }): Promise<void> {
    await trx
      .insertInto('password_resets')
      .values({
        id: row.id,
        user_id: row.userId,
        token_hash: row.tokenHash,
        expires_at: row.expiresAt,
        used_at: null,
        created_at: row.createdAt,
      })
      .execute();
  }

  byTokenHash(tokenHash: string) {
    return this.db.selectFrom('password_resets').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  /** Marks the link used; false when another request used it first (one conditional update decides). */
  async claim(id: string, at: string): Promise<boolean> {
    const claimed = await this.db.updateTable('password_resets').set({ used_at: at }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
    return Number(claimed.numUpdatedRows) === 1;
  }

  /** Ends every unused link of the account. */
  async useUpAll(userId: string, at: string): Promise<void> {
    await this.db.updateTable('password_resets').set({ used_at: at }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
  }
}
