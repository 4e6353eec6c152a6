import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';

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
