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
  licenceReturnParamsSchema,
  licenceReturnResponseSchema,
  listPlansResponseSchema,
  perpetualLicencesResponseSchema,
  paddleConfigSchema,
  perpetualProductsResponseSchema,
  preloadRequestSchema,
  preloadResponseSchema,
  type PaddleConfig,
} from '../../../contract/billing.js';
import { currentUser, type Guards } from '../../plugins/authentication.js';
import { GUESS_LIMITS } from '../../plugins/guess-limits.js';
import { Catalogue } from './catalogue.js';
import { changeBillingInfo, createCheckout } from './checkout.js';
import { perpetualProductsFor, plansFor, preloadFor } from './offers.js';
import { perpetualLicences, returnLicence, type ReleaseSeatsAboveLimit } from './purchased-licences.js';
import type { RefundRunner } from './refunds.js';
import { type EventBus } from '../events/index.js';
import { billingInfo, customerIdFor, type BillingInfoDeps } from './customers.js';

/** Catalogue, price previews, discounts, the billing customer and billing info (spec section 7). */
export const billingRoutes: FastifyPluginAsyncZod<{
  deps: BillingInfoDeps & { refunds: RefundRunner; releaseSeatsAboveLimit: ReleaseSeatsAboveLimit; bus: Pick<EventBus, 'announce'> };
  guards: Guards;
  paddleConfig: PaddleConfig;
}> = async (
  app,
  { deps, guards, paddleConfig },
) => {
  const catalogue = new Catalogue(deps);

  app.get('/paddle/config', { schema: { response: { 200: paddleConfigSchema } } }, async () => paddleConfig);

  app.get('/paddle/list-plans', { onRequest: guards.user, schema: { response: { 200: listPlansResponseSchema } } }, async (request) =>
    plansFor(deps, catalogue, currentUser(request)),
  );

  app.get(
    '/perpetual/license',
    { onRequest: guards.user, schema: { querystring: licenceQuerySchema, response: { 200: perpetualLicencesResponseSchema } } },
    async (request) => perpetualLicences(deps.db, currentUser(request), request.query.UserId, deps.clock.now()),
  );

  // Spec section 9: a licence can be returned within 14 days; the refund is asked of Paddle at once.
  app.post(
    '/perpetual/license/:licenceId/return',
    { onRequest: guards.user, schema: { params: licenceReturnParamsSchema, response: { 200: licenceReturnResponseSchema } } },
    async (request) => returnLicence(deps, currentUser(request), request.params.licenceId),
  );

  app.post(
    '/paddle/checkout',
    { onRequest: guards.user, schema: { body: checkoutRequestSchema, response: { 200: checkoutResponseSchema } } },
    async (request) => createCheckout(deps, catalogue, currentUser(request), request.body),
  );

  app.get('/perpetual/products', { onRequest: guards.user, schema: { response: { 200: perpetualProductsResponseSchema } } }, async (request) =>
    perpetualProductsFor(deps, catalogue, currentUser(request)),
  );

  for (const kind of ['subscription', 'perpetual'] as const) {
    app.post(
      `/${kind}/preload`,
      // The body may be empty (spec section 7): no discount. A signed-in buyer's saved address sets the tax.
      // A preview by POST: a read-only view of a customer's account may ask for it (issue 47).
      { onRequest: guards.optionalUser, config: { readsOnly: true }, schema: { body: preloadRequestSchema.nullish(), response: { 200: preloadResponseSchema } } },
      async (request) => preloadFor(deps, catalogue, kind, request.body ?? {}, request.authUser),
    );
  }

  app.get(
    '/perpetual/discount-object-by-code/',
    { config: { guessLimit: GUESS_LIMITS.discountCode }, schema: { querystring: discountByCodeQuerySchema, response: { 200: discountSchema } } },
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
    async (request) => changeBillingInfo(deps, currentUser(request), request.body),
  );
};

