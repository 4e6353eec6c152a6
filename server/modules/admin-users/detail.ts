import type { AdminUserDetail } from '../../../contract/users.js';
import { AppError } from '../../errors.js';
import { type Sessions } from '../auth/index.js';
import { chargebacksOf, paymentsForSupport, subscriptionOf } from '../billing/index.js';
import { couponsForSupport } from '../coupons/index.js';
import { seatsOf } from '../devices/index.js';
import { licencesForSupport } from '../licensing/index.js';
import { liteKeysForSupport } from '../lite-keys/index.js';
import { adminUserOf, supportProfileOf } from '../users/index.js';
import type { AdminDeps } from './admin.js';

const iso = (value: string | null) => (value ? new Date(value).toISOString() : null);

/**
 * `GET /users/{id}` (admin; issue 21): everything support needs about one account, asked of the modules
 * that keep it in one round of queries (Paddle is never asked, so the page answers when Paddle does not).
 */
export async function userDetail(deps: AdminDeps & { sessions: Sessions }, userId: string): Promise<AdminUserDetail> {
  const { db } = deps;
  const profile = await supportProfileOf(db, userId);
  if (!profile) throw new AppError('USER_NOT_FOUND', 404);
  const now = deps.clock.now();
  const [row, sessions, subscription, transactions, licences, devices, { redemptions: coupons, accessPasses: passes }, liteKeys, chargebacks] = await Promise.all([
    adminUserOf(deps, userId),
    deps.sessions.list(userId, ''),
    // As staff see it: the refund an admin may still make after the customer's own (issue 46 item 1).
    subscriptionOf(db, userId, now, { staff: true }),
    paymentsForSupport(db, userId),
    licencesForSupport(db, userId),
    seatsOf(deps, userId),
    couponsForSupport(db, userId),
    liteKeysForSupport(db, userId),
    chargebacksOf(db, userId),
  ]);
  return {
    user: {
      ...row,
      // Issue 46 item 9: marked while a chargeback stands (one the bank gave back lifts it), as on the grid.
      chargeback: chargebacks.some((chargeback) => chargeback.reversed_at === null),
      phone: profile.phone,
      country: profile.country,
      language: profile.language === 'de' ? 'de' : 'en',
      emailVerifiedAt: iso(profile.email_verified_at),
      signupSource: profile.signup_source,
    },
    signInMethods: {
      password: profile.password_hash !== null,
      google: row.googleConnected,
      facebook: row.facebookConnected,
      twoFactor: Number(profile.two_factor_enabled) === 1,
    },
    // An admin looking at someone else's sessions: none of them is "this device".
    sessions: sessions.map((session) => ({ ...session, current: false })),
    subscription,
    transactions: transactions.map((payment) => ({
      id: payment.id,
      status: payment.status,
      origin: payment.origin,
      subscriptionId: payment.subscription_id,
      billedAt: iso(payment.billed_at ?? payment.created_at),
      total: { amount: Number(payment.grand_total), currencyCode: payment.currency_code },
      refundStatus: payment.refund_status,
    })),
    licences: licences.map((licence) => ({
      id: licence.id,
      source: licence.source,
      edition: licence.edition,
      release: licence.release,
      updatesUntil: iso(licence.updates_until),
      grantedAt: new Date(licence.granted_at).toISOString(),
      revokedAt: iso(licence.revoked_at),
    })),
    devices,
    coupons: coupons.map((coupon) => ({ code: coupon.code, redeemedAt: new Date(coupon.redeemed_at).toISOString() })),
    accessPasses: passes.map((pass) => ({ code: pass.source_ref, startsAt: new Date(pass.starts_at).toISOString(), endsAt: new Date(pass.ends_at).toISOString() })),
    liteKeys: liteKeys.map((key) => ({ key: key.key, channel: key.channel, claimedAt: iso(key.claimed_at) })),
    chargebacks: chargebacks.map((chargeback) => ({
      transactionId: chargeback.transaction_id,
      subscriptionId: chargeback.subscription_id,
      amount: { amount: Number(chargeback.amount), currencyCode: chargeback.currency_code },
      createdAt: new Date(chargeback.created_at).toISOString(),
      reversedAt: iso(chargeback.reversed_at),
    })),
  };
}
