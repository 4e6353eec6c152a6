import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';

/** The lite-keys module's SQL: the Shapelab Lite keys the stores hand out, unclaimed until a user claims one. */

/** Inserts the keys not known yet; answers how many were new. */
export async function insertNewKeys(trx: Transaction<Database>, keys: { key: string; channel: string }[], importedAt: string): Promise<number> {
  const result = await trx
    .insertInto('lite_keys')
    .values(keys.map(({ key, channel }) => ({ key, channel, imported_at: importedAt, claimed_by: null, claimed_at: null })))
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/** The unclaimed keys, those starting with `prefix` when one is given (letters, digits and dashes only: nothing LIKE reads as a wildcard). */
function unclaimedKeys(db: Kysely<Database>, prefix: string) {
  let query = db.selectFrom('lite_keys').where('claimed_at', 'is', null);
  if (prefix) query = query.where('key', 'like', `${prefix}%`);
  return query;
}

export interface UnclaimedKeyRow {
  key: string;
  channel: string;
  imported_at: string;
}

/** A page of the unclaimed keys, newest import first, and how many there are in all. */
export async function unclaimedKeysPage(db: Kysely<Database>, input: { prefix: string; skip: number; take: number }): Promise<{ rows: UnclaimedKeyRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    unclaimedKeys(db, input.prefix)
      .select(['key', 'channel', 'imported_at'])
      .orderBy('imported_at', 'desc')
      .orderBy('key')
      .limit(input.take)
      .offset(input.skip)
      .execute(),
    unclaimedKeys(db, input.prefix)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Every unclaimed key, newest import first. */
export async function allUnclaimedKeys(db: Kysely<Database>, prefix: string): Promise<UnclaimedKeyRow[]> {
  return unclaimedKeys(db, prefix).select(['key', 'channel', 'imported_at']).orderBy('imported_at', 'desc').orderBy('key').execute();
}

/**
 * Claims the key for the user if it is unclaimed: a conditional update, so of two claims of one key
 * exactly one succeeds. Answers the key's store channel, or undefined when it was not claimed now.
 */
export async function claimUnclaimedKey(trx: Transaction<Database>, input: { key: string; userId: string; claimedAt: string }): Promise<{ channel: string } | undefined> {
  return trx
    .updateTable('lite_keys')
    .set({ claimed_by: input.userId, claimed_at: input.claimedAt })
    .where('key', '=', input.key)
    .where('claimed_at', 'is', null)
    .returning(['channel'])
    .executeTakeFirst();
}

export async function keyExists(trx: Transaction<Database>, key: string): Promise<boolean> {
  const known = await trx.selectFrom('lite_keys').select('key').where('key', '=', key).executeTakeFirst();
  return known !== undefined;
}
