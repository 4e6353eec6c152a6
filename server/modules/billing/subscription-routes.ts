import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  cancelRequestSchema,
  invoiceLinkSchema,
  invoicesResponseSchema,
  pauseRequestSchema,
  paymentMethodSchema,
  paymentMethodTransactionSchema,
  planChangePreviewSchema,
  planChangeRequestSchema,
  subscriptionIdParamsSchema,
  subscriptionSchema,
} from '../../../contract/subscription.js';
import { currentUser, type Guards } from '../../plugins/authentication.js';
import { Catalogue } from './catalogue.js';
import {
  approveSubscription,
  cancelSubscription,
  changePlan,
  continueSubscription,
  invoiceLink,
  invoices,
  paymentMethodOf,
  paymentMethodTransaction,
  pauseSubscription,
  previewPlanChange,
  resumeSubscription,
  type ActionDeps,
} from './subscription-actions.js';
import { subscriptionOf } from './subscription-read.js';

/** The user's subscription (spec section 7: `GET /subscription/user`), what they may do with it, and their invoices. */
export const subscriptionRoutes: FastifyPluginAsyncZod<{ deps: ActionDeps; guards: Guards }> = async (app, { deps, guards }) => {
  app.get('/subscription/user', { onRequest: guards.user, schema: { response: { 200: subscriptionSchema.nullable() } } }, async (request) =>
    subscriptionOf(deps.db, currentUser(request).id, deps.clock.now()),
  );

  app.post(
    '/subscription/cancel',
    { onRequest: guards.user, schema: { body: cancelRequestSchema, response: { 200: subscriptionSchema } } },
    async (request) =>
      cancelSubscription(deps, currentUser(request), { refund: request.body?.refund === true, reason: request.body?.reason, comment: request.body?.comment }),
  );

  app.post('/subscription/continue', { onRequest: guards.user, schema: { response: { 200: subscriptionSchema } } }, async (request) =>
    continueSubscription(deps, currentUser(request)),
  );

  // Issue 46 item 7: Paddle's scheduled pause, and its end.
  app.post(
    '/subscription/pause',
    { onRequest: guards.user, schema: { body: pauseRequestSchema, response: { 200: subscriptionSchema } } },
    async (request) => pauseSubscription(deps, currentUser(request), request.body?.resumeAt),
  );

  app.post('/subscription/resume', { onRequest: guards.user, schema: { response: { 200: subscriptionSchema } } }, async (request) =>
    resumeSubscription(deps, currentUser(request)),
  );

  const catalogue = new Catalogue(deps);

  app.post(
    '/subscription/change/preview',
    // A preview by POST: a read-only view of a customer's account may ask for it (issue 47).
    { onRequest: guards.user, config: { readsOnly: true }, schema: { body: planChangeRequestSchema, response: { 200: planChangePreviewSchema } } },
    async (request) => previewPlanChange(deps, catalogue, currentUser(request), request.body.interval),
  );

  app.post(
    '/subscription/change',
    { onRequest: guards.user, schema: { body: planChangeRequestSchema, response: { 200: subscriptionSchema } } },
    async (request) => changePlan(deps, catalogue, currentUser(request), request.body.interval),
  );

  app.get('/subscription/payment-method', { onRequest: guards.user, schema: { response: { 200: paymentMethodSchema } } }, async (request) =>
    paymentMethodOf(deps, currentUser(request)),
  );

  app.post('/subscription/payment-method', { onRequest: guards.user, schema: { response: { 200: paymentMethodTransactionSchema } } }, async (request) =>
    paymentMethodTransaction(deps, currentUser(request)),
  );

  app.get(
    '/subscription/approve/:subscriptionId',
    { onRequest: guards.user, schema: { params: subscriptionIdParamsSchema, response: { 200: subscriptionSchema } } },
    async (request) => approveSubscription(deps, currentUser(request), request.params.subscriptionId),
  );

  app.get('/subscription/billing/invoice', { onRequest: guards.user, schema: { response: { 200: invoicesResponseSchema } } }, async (request) =>
    invoices(deps, currentUser(request)),
  );

  // The PDF link is Paddle's, short-lived: the SPA asks for it when the user clicks, then opens it.
  app.get(
    '/subscription/billing/invoice/:transactionId',
    {
      onRequest: guards.user,
      schema: { params: z.object({ transactionId: z.string().regex(/^txn_[a-z0-9]{1,40}$/) }), response: { 200: invoiceLinkSchema } },
    },
    async (request) => ({ url: await invoiceLink(deps, currentUser(request), request.params.transactionId) }),
  );

};
