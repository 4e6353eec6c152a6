import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { couponCreateSchema, couponSchema, redeemRequestSchema, redeemResponseSchema } from '../../../contract/licensing.js';
import { currentUser, staffActorOf, type Guards } from '../../plugins/authentication.js';
import { GUESS_LIMITS } from '../../plugins/guess-limits.js';
import { createCoupon, listCoupons, redeemCoupon, type CouponDeps } from './service.js';

/** Coupons: users redeem them from the profile; admins create and list them. */
export const couponRoutes: FastifyPluginAsyncZod<{ deps: CouponDeps; guards: Guards }> = async (app, { deps, guards }) => {
  app.post('/coupons/redeem', { onRequest: guards.user, config: { guessLimit: GUESS_LIMITS.coupon }, schema: { body: redeemRequestSchema, response: { 200: redeemResponseSchema } } }, async (request) => ({
    grant: await redeemCoupon(deps, currentUser(request).id, request.body.code),
  }));

  app.get('/coupons', { onRequest: guards.staff, config: { permission: 'coupons.read' }, schema: { response: { 200: z.array(couponSchema) } } }, async () =>
    listCoupons(deps.db),
  );

  app.post(
    '/coupons',
    { onRequest: guards.staff, config: { permission: 'coupons.create' }, schema: { body: couponCreateSchema, response: { 200: couponSchema } } },
    async (request) => createCoupon(deps, request.body, staffActorOf(request)),
  );
};
