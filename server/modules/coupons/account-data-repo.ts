import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** The account's coupon redemptions and the access passes they granted, as stored (the data export, issue 17). */
export async function couponRecordsOf(db: Kysely<Database>, userId: string) {
  const [redemptions, accessPasses] = await Promise.all([
    db.selectFrom('coupon_redemptions').selectAll().where('user_id', '=', userId).execute(),
    db.selectFrom('access_passes').selectAll().where('user_id', '=', userId).execute(),
  ]);
  return { redemptions, accessPasses };
}

/** The account's redemptions and access passes as support lists them (the admin user page), newest first. */
export async function couponsForSupport(db: Kysely<Database>, userId: string) {
  const [redemptions, accessPasses] = await Promise.all([
    db.selectFrom('coupon_redemptions').select(['code', 'redeemed_at']).where('user_id', '=', userId).orderBy('redeemed_at', 'desc').execute(),
    db.selectFrom('access_passes').select(['source_ref', 'starts_at', 'ends_at']).where('user_id', '=', userId).orderBy('starts_at', 'desc').execute(),
  ]);
  return { redemptions, accessPasses };
}
