import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Coupon, CouponCreate, Grant } from '../../../contract/licensing.js';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { type EventBus } from '../events/index.js';
import { recordActivity, recordStaffAction, type StaffActor } from '../activity/index.js';
import { grantCouponLicence } from '../licensing/index.js';
import { countRedemption, couponByCode, insertAccessPass, insertCoupon, insertRedemption, newestCoupons, runningAccessEnd, type CouponRow } from './repo.js';

export interface CouponDeps {
  db: Kysely<Database>;
  clock: Clock;
  bus: EventBus;
}

/** Codes are matched without regard to case or surrounding spaces. */
export function normaliseCode(code: string): string {
  return code.trim().toUpperCase();
}

function toCoupon(row: CouponRow): Coupon {
  return {
    code: row.code,
    grant: row.grant_kind,
    release: row.release,
    days: row.access_days,
    usageLimit: row.usage_limit,
    redeemed: Number(row.redeemed_count),
    expiresAt: row.expires_at ? new Date(row.expires_at).toISOString() : null,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/**
 * `POST /coupons` (admin) and `npm run coupons -- create` (the operator's: no staff member: `staff` null, no audit
 * entry, as with every change made on the database itself).
 */
export async function createCoupon(deps: Pick<CouponDeps, 'db' | 'clock'>, input: CouponCreate, staff: StaffActor | null): Promise<Coupon> {
  const now = deps.clock.now();
  const row = await deps.db.transaction().execute(async (trx) => {
    const inserted = await insertCoupon(trx, {
      code: normaliseCode(input.code),
      grant_kind: input.grant,
      release: input.grant === 'licence' ? (input.release ?? null) : null,
      access_days: input.grant === 'access' ? (input.days ?? null) : null,
      usage_limit: input.usageLimit ?? null,
      expires_at: input.expiresAt ? new Date(input.expiresAt).toISOString() : null,
      created_at: now.toISOString(),
      created_by: staff?.id ?? null,
    });
    if (!inserted) throw new AppError('COUPON_EXISTS', 409);
    // Issue 47: a coupon gives licences away; the audit log keeps who made it.
    if (staff) await recordStaffAction(trx, { actor: staff, action: 'coupon.created', subjectId: null, details: { code: inserted.code, grant: inserted.grant_kind }, at: now });
    return inserted;
  });
  return toCoupon(row);
}

/** `GET /coupons` (admin): newest first. */
export async function listCoupons(db: Kysely<Database>): Promise<Coupon[]> {
  return (await newestCoupons(db)).map(toCoupon);
}

/** The reason a coupon cannot be redeemed now by anyone, or null: checked at registration before the account exists. */
export async function couponProblem(db: Kysely<Database>, code: string, now: Date): Promise<'COUPON_INVALID' | 'COUPON_EXPIRED' | 'COUPON_USED_UP' | null> {
  const coupon = await couponByCode(db, normaliseCode(code));
  if (!coupon) return 'COUPON_INVALID';
  if (coupon.expires_at && Date.parse(coupon.expires_at) <= now.getTime()) return 'COUPON_EXPIRED';
  if (coupon.usage_limit !== null && Number(coupon.redeemed_count) >= coupon.usage_limit) return 'COUPON_USED_UP';
  return null;
}

/**
 * Redeems `code` for the user inside `trx` and grants what it carries: a perpetual licence of a release
 * or N days of access (added after any access still running). One redemption per user and code is the
 * primary key of coupon_redemptions; the usage limit is a conditional increment of the coupon's counter,
 * which the database serialises on the coupon's row, so concurrent redemptions never exceed it.
 */
export async function redeemInTransaction(trx: Transaction<Database>, userId: string, code: string, now: Date): Promise<Grant> {
  const grant = await grantCoupon(trx, userId, code, now);
  await recordActivity(trx, { userId, kind: 'coupon.redeemed', details: { code: normaliseCode(code), ...grant }, at: now });
  return grant;
}

async function grantCoupon(trx: Transaction<Database>, userId: string, code: string, now: Date): Promise<Grant> {
  const normalised = normaliseCode(code);
  const coupon = await couponByCode(trx, normalised);
  if (!coupon) throw new AppError('COUPON_INVALID', 422);
  if (coupon.expires_at && Date.parse(coupon.expires_at) <= now.getTime()) throw new AppError('COUPON_EXPIRED', 410);
  if (!(await insertRedemption(trx, { code: normalised, userId, redeemedAt: now.toISOString() }))) throw new AppError('COUPON_ALREADY_ACTIVATED', 409);
  if (!(await countRedemption(trx, normalised))) throw new AppError('COUPON_USED_UP', 409);

  if (coupon.grant_kind === 'licence' && coupon.release) {
    // One live licence per release: a release held already is not given twice.
    if (!(await grantCouponLicence(trx, { userId, release: coupon.release, code: normalised, grantedAt: now.toISOString() }))) throw new AppError('PRODUCT_ALREADY_OWNED', 409);
    return { kind: 'licence', release: coupon.release };
  }
  const days = coupon.access_days ?? 0;
  const running = await runningAccessEnd(trx, userId, now.toISOString());
  const startsAt = running ? new Date(running) : now;
  const endsAt = new Date(startsAt.getTime() + days * 86_400_000);
  await insertAccessPass(trx, { id: randomUUID(), user_id: userId, source_ref: normalised, starts_at: startsAt.toISOString(), ends_at: endsAt.toISOString() });
  return { kind: 'access', days, accessEndsAt: endsAt.toISOString() };
}

/** `POST /coupons/redeem` from the profile: all or nothing, in one transaction. */
export async function redeemCoupon(deps: CouponDeps, userId: string, code: string): Promise<Grant> {
  const grant = await deps.db.transaction().execute((trx) => redeemInTransaction(trx, userId, code, deps.clock.now()));
  deps.bus.publish(userId, { type: 'licence', id: normaliseCode(code) });
  return grant;
}
