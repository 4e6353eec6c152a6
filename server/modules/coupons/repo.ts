import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { AccessPassesTable, CouponsTable, Database } from '../../db/schema.js';

/**
 * The coupons module's SQL: coupons, their redemptions (one per user and code, the primary key), and the
 * access passes that access coupons grant (days of access, one row per redemption).
 */

type Db = Kysely<Database> | Transaction<Database>;
export type CouponRow = Selectable<CouponsTable>;

/** Inserts a coupon unless its code exists; undefined when it does. */
export async function insertCoupon(db: Kysely<Database>, row: Insertable<CouponsTable>): Promise<CouponRow | undefined> {
  return db
    .insertInto('coupons')
    .values(row)
    .onConflict((oc) => oc.column('code').doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** The 500 newest coupons. */
export async function newestCoupons(db: Kysely<Database>): Promise<CouponRow[]> {
  return db.selectFrom('coupons').selectAll().orderBy('created_at', 'desc').limit(500).execute();
}

/** The coupon of a normalised code. */
export async function couponByCode(db: Db, code: string): Promise<CouponRow | undefined> {
  return db.selectFrom('coupons').selectAll().where('code', '=', code).executeTakeFirst();
}

/** Records the user's redemption of `code`; false when they redeemed it before. */
export async function insertRedemption(trx: Transaction<Database>, input: { code: string; userId: string; redeemedAt: string }): Promise<boolean> {
  const redemption = await trx
    .insertInto('coupon_redemptions')
    .values({ code: input.code, user_id: input.userId, redeemed_at: input.redeemedAt })
    .onConflict((oc) => oc.columns(['code', 'user_id']).doNothing())
    .executeTakeFirst();
  return Number(redemption.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * Counts one more redemption of `code` if its usage limit allows: a conditional increment, which the
 * database serialises on the coupon's row. False when the limit is reached.
 */
export async function countRedemption(trx: Transaction<Database>, code: string): Promise<boolean> {
  const counted = await trx
    .updateTable('coupons')
    .set((eb) => ({ redeemed_count: eb('redeemed_count', '+', 1) }))
    .where('code', '=', code)
    .where((eb) => eb.or([eb('usage_limit', 'is', null), eb('redeemed_count', '<', eb.ref('usage_limit'))]))
    .executeTakeFirst();
  return Number(counted.numUpdatedRows) > 0;
}

/** When the user's access that is still running at `nowIso` ends (the latest pass), or null. */
export async function runningAccessEnd(trx: Transaction<Database>, userId: string, nowIso: string): Promise<string | null> {
  const running = await trx
    .selectFrom('access_passes')
    .select((eb) => eb.fn.max('ends_at').as('ends_at'))
    .where('user_id', '=', userId)
    .where('ends_at', '>', nowIso)
    .executeTakeFirst();
  return running?.ends_at ?? null;
}

export async function insertAccessPass(trx: Transaction<Database>, row: Insertable<AccessPassesTable>): Promise<void> {
  await trx.insertInto('access_passes').values(row).execute();
}
