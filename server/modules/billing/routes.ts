import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  billingInfoSchema,
  billingInfoUpdateSchema,
  checkoutRequestSchema,
  checkoutResponseSchema,
  customerResponseSchema,
  discountByCodeQuerySchema,
  discountByPriceQuerySchema,
  discountSchema,
  licenceQuerySchema,
  listPlansResponseSchema,
  perpetualLicencesResponseSchema,
  paddleConfigSchema,
  perpetualProductsResponseSchema,
  preloadRequestSchema,
  preloadResponseSchema,
  type PaddleConfig,
} from '../../../contract/billing.js';
import { currentUser, type Guards } from '../../plugins/authentication.js';
import { Catalogue } from './catalogue.js';
import { createCheckout, hadSubscription } from './checkout.js';
import { ownedPerpetual, perpetualLicences } from '../licensing/licences.js';
import { billingContext, billingInfo, customerIdFor, updateBillingInfo, type CustomerDeps } from './customers.js';

/** Catalogue, price previews, discounts, the billing customer and billing info (spec section 7). */
export const billingRoutes: FastifyPluginAsyncZod<{ deps: CustomerDeps; guards: Guards; paddleConfig: PaddleConfig }> = async (
  app,
  { deps, guards, paddleConfig },
) => {
  const catalogue = new Catalogue(deps);

  app.get('/paddle/config', { schema: { response: { 200: paddleConfigSchema } } }, async () => paddleConfig);

  // The 14-day trial is for a first subscription: someone who has subscribed before sees plans without it.
  app.get('/paddle/list-plans', { onRequest: guards.user, schema: { response: { 200: listPlansResponseSchema } } }, async (request) => {
    const plans = await catalogue.plans();
    return (await hadSubscription(deps.db, currentUser(request).id)) ? plans.map((plan) => ({ ...plan, trialDays: null })) : plans;
  });

  app.get(
    '/perpetual/license',
    { onRequest: guards.user, schema: { querystring: licenceQuerySchema, response: { 200: perpetualLicencesResponseSchema } } },
    async (request) => perpetualLicences(deps.db, currentUser(request), request.query.UserId),
  );

  app.post(
    '/paddle/checkout',
    { onRequest: guards.user, schema: { body: checkoutRequestSchema, response: { 200: checkoutResponseSchema } } },
    async (request) => createCheckout(deps, catalogue, currentUser(request), request.body),
  );

  // A release the user already owns is not offered again (spec section 4: owned products are hidden).
  app.get('/perpetual/products', { onRequest: guards.user, schema: { response: { 200: perpetualProductsResponseSchema } } }, async (request) => {
    const owned = await ownedPerpetual(deps.db, currentUser(request).id);
    return (await catalogue.perpetualProducts()).filter(
      (product) => !owned.productIds.has(product.id) && !owned.releases.has(product.custom_data.shapelabRelease),
    );
  });

  for (const kind of ['subscription', 'perpetual'] as const) {
    app.post(
      `/${kind}/preload`,
      // The body may be empty (spec section 7): no discount. A signed-in buyer's saved address sets the tax.
      { onRequest: guards.optionalUser, schema: { body: preloadRequestSchema.nullish(), response: { 200: preloadResponseSchema } } },
      async (request) => catalogue.preload(kind, request.body ?? {}, request.authUser ? await billingContext(deps, request.authUser) : null),
    );
  }

  app.get(
    '/perpetual/discount-object-by-code/',
    { schema: { querystring: discountByCodeQuerySchema, response: { 200: discountSchema } } },
    async (request) => catalogue.discountByCode(request.query.discountCode, { humbleBundle: request.query.humbleBundle === 'true' }),
  );

  app.get(
    '/perpetual/get-discount-by-price-id',
    { schema: { querystring: discountByPriceQuerySchema, response: { 200: discountSchema.nullable() } } },
    async (request) => catalogue.discountForPrice(request.query.priceId, request.query.eligibleForDiscount === 'true'),
  );

  app.get('/subscription/paddle/customer', { onRequest: guards.user, schema: { response: { 200: customerResponseSchema } } }, async (request) => ({
    id: await customerIdFor(deps, currentUser(request)),
  }));

  app.get('/subscription/billing-info', { onRequest: guards.user, schema: { response: { 200: billingInfoSchema } } }, async (request) =>
    billingInfo(deps, currentUser(request)),
  );

  app.patch(
    '/subscription/billing-info',
    { onRequest: guards.user, schema: { body: billingInfoUpdateSchema, response: { 200: billingInfoSchema } } },
    async (request) => updateBillingInfo(deps, currentUser(request), request.body),
  );
};

