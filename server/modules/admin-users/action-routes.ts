import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { invoiceLinkSchema, subscriptionSchema } from '../../../contract/subscription.js';
import {
  adminCancelRequestSchema,
  adminReleaseResponseSchema,
  adminResendResponseSchema,
  adminSessionsEndedSchema,
  userDeviceParamsSchema,
  userTransactionParamsSchema,
} from '../../../contract/admin-actions.js';
import { userIdParamsSchema } from '../../../contract/users.js';
import { currentSession, currentUser, type Guards } from '../../plugins/authentication.js';
import { cancelSubscriptionOf, endSessionsOf, invoiceLinkOf, releaseDeviceOf, resendVerificationOf, type Actor, type AdminActionDeps } from './admin-actions.js';

const actorOf = (request: FastifyRequest): Actor => ({ id: currentUser(request).id, sessionId: currentSession(request).id });

/** The admin user page's actions on one account (issue 21), admins only. */
export const adminActionRoutes: FastifyPluginAsyncZod<{ deps: AdminActionDeps; guards: Guards }> = async (app, { deps, guards }) => {
  app.post(
    '/users/:id/sessions/end',
    { onRequest: guards.admin, schema: { params: userIdParamsSchema, response: { 200: adminSessionsEndedSchema } } },
    async (request) => endSessionsOf(deps, actorOf(request), request.params.id),
  );

  app.post(
    '/users/:id/verification/resend',
    { onRequest: guards.admin, schema: { params: userIdParamsSchema, response: { 200: adminResendResponseSchema } } },
    async (request) => resendVerificationOf(deps, actorOf(request), request.params.id),
  );

  app.post(
    '/users/:id/subscription/cancel',
    { onRequest: guards.admin, schema: { params: userIdParamsSchema, body: adminCancelRequestSchema, response: { 200: subscriptionSchema } } },
    async (request) => cancelSubscriptionOf(deps, actorOf(request), request.params.id, request.body.refund),
  );

  app.post(
    '/users/:id/devices/:deviceId/release',
    { onRequest: guards.admin, schema: { params: userDeviceParamsSchema, response: { 200: adminReleaseResponseSchema } } },
    async (request) => releaseDeviceOf(deps, actorOf(request), request.params.id, request.params.deviceId),
  );

  // The PDF link is Paddle's, short-lived: the page asks for it when support clicks, then opens it.
  app.get(
    '/users/:id/transactions/:transactionId/invoice',
    { onRequest: guards.admin, schema: { params: userTransactionParamsSchema, response: { 200: invoiceLinkSchema } } },
    async (request) => invoiceLinkOf(deps, request.params.id, request.params.transactionId),
  );
};
