import type { PortalModule } from '../../context.js';
import { couponRoutes } from './routes.js';

/** Coupons: a licence of a release or days of access, redeemed once per user, created by admins. */
export const couponsModule: PortalModule = async (app, context) => {
  await app.register(couponRoutes, { deps: { db: context.db.kysely, clock: context.clock, bus: context.bus }, guards: context.guards });
};

export { couponProblem, createCoupon, listCoupons, redeemInTransaction, type CouponDeps } from './service.js';
export { accessRunningUntil, openAccessPasses, type AccessPass } from './access-repo.js';
export { couponRecordsOf, couponsForSupport } from './account-data-repo.js';
