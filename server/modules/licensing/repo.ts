import type { Insertable, Kysely } from 'kysely';
import type { Database, LicencesTable } from '../../db/schema.js';

/**
 * The licences table's SQL: every licence a user holds, bought (billing's webhooks), redeemed (coupons) or
 * claimed (Lite keys). A returned licence keeps its row with `revoked_at` set; everything that asks what a
 * user holds reads only the live ones. One live licence per user and release is a partial unique index,
 * one licence per (transaction, product) another: a grant that would break either inserts nothing.
 */

type Db = Kysely<Database>;

/** Inserts a licence unless a unique index says it exists already; whether it was inserted. */
export async function insertLicence(db: Db, licence: Insertable<LicencesTable>): Promise<boolean> {
  const result = await db
    .insertInto('licences')
    .values(licence)
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Whether the purchase `transactionId` granted a licence of `productId` already (a repeated webhook). */
export async function isPurchaseGranted(db: Db, transactionId: string, productId: string): Promise<boolean> {
  const repeat = await db
    .selectFrom('licences')
    .select('id')
    .where('transaction_id', '=', transactionId)
    .where('product_id', '=', productId)
    .executeTakeFirst();
  return repeat !== undefined;
}

/** The products and releases of the user's live full licences. */
export async function ownedFullLicences(db: Db, userId: string): Promise<{ product_id: string | null; release: string | null }[]> {
  return db
    .selectFrom('licences')
    .select(['product_id', 'release'])
    .where('user_id', '=', userId)
    .where('edition', '=', 'full')
    .where('revoked_at', 'is', null)
    .execute();
}

/** A live licence as the entitlements read it: full ones (a release, its free updates) and Lite ones (a store channel). */
export interface HeldLicence {
  id: string;
  edition: LicencesTable['edition'];
  source: LicencesTable['source'];
  channel: string;
  release: string | null;
  updates_until: string | null;
}

/** Everything the user holds now, full and Lite, the newest first; returned licences excluded. */
export async function heldLicences(db: Db, userId: string): Promise<HeldLicence[]> {
  return db
    .selectFrom('licences')
    .select(['id', 'edition', 'source', 'channel', 'release', 'updates_until'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .orderBy('granted_at', 'desc')
    .execute();
}

/** A full licence as billing lists and returns it: what bought it (a transaction, a product, a price) and when. */
export interface PerpetualLicenceRow {
  id: string;
  source: LicencesTable['source'];
  release: string | null;
  updates_until: string | null;
  transaction_id: string | null;
  product_id: string | null;
  price_id: string | null;
  granted_at: string;
  revoked_at: string | null;
}

function perpetualLicenceRows(db: Db) {
  return db
    .selectFrom('licences')
    .select(['id', 'source', 'release', 'updates_until', 'transaction_id', 'product_id', 'price_id', 'granted_at', 'revoked_at'])
    .where('edition', '=', 'full');
}

/** The user's live full licences, bought or redeemed, the newest first. */
export async function perpetualLicencesOf(db: Db, userId: string): Promise<PerpetualLicenceRow[]> {
  return perpetualLicenceRows(db).where('user_id', '=', userId).where('revoked_at', 'is', null).orderBy('granted_at', 'desc').execute();
}

/** One of the user's full licences, returned ones included (the caller tells them apart); undefined when not theirs. */
export async function perpetualLicenceOf(db: Db, userId: string, licenceId: string): Promise<PerpetualLicenceRow | undefined> {
  return perpetualLicenceRows(db).where('id', '=', licenceId).where('user_id', '=', userId).executeTakeFirst();
}

/**
 * Revokes a live licence (`reason`: why, e.g. 'returned'), in the caller's transaction. Conditional on its
 * being live, so of two revocations at once one changes the row; whether this one did.
 */
export async function revokeLicence(db: Db, licenceId: string, at: string, reason: string): Promise<boolean> {
  const revoked = await db
    .updateTable('licences')
    .set({ revoked_at: at, revoked_reason: reason })
    .where('id', '=', licenceId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(revoked.numUpdatedRows) > 0;
}

/**
 * Revokes every live licence `transactionId` granted (`reason`: e.g. 'chargeback', issue 46 item 9), in the
 * caller's transaction; the licences this call revoked, with their releases.
 */
export async function revokeLicencesOfTransaction(db: Db, transactionId: string, at: string, reason: string): Promise<{ id: string; release: string | null }[]> {
  const live = await db.selectFrom('licences').select(['id', 'release']).where('transaction_id', '=', transactionId).where('revoked_at', 'is', null).execute();
  const revoked: { id: string; release: string | null }[] = [];
  for (const licence of live) if (await revokeLicence(db, licence.id, at, reason)) revoked.push(licence);
  return revoked;
}
