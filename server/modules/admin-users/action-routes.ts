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
  viewAsResponseSchema,
} from '../../../contract/admin-actions.js';
import { userIdParamsSchema } from '../../../contract/users.js';
import { hasPermission } from '../../../contract/permissions.js';
import { AppError } from '../../errors.js';
import { currentSession, currentUser, staffActorOf, type Guards } from '../../plugins/authentication.js';
import type { Sessions } from '../auth/index.js';
import type { UsersRepo } from '../users/index.js';
import { cancelSubscriptionOf, endSessionsOf, invoiceLinkOf, releaseDeviceOf, resendVerificationOf, type Actor, type AdminActionDeps } from './admin-actions.js';
import { viewAs } from './view-as.js';

const actorOf = (request: FastifyRequest): Actor => ({ staff: staffActorOf(request), sessionId: currentSession(request).id });

/**
 * The admin user page's actions on one account (issue 21), each with its permission (issue 47): support
 * ends sessions, resends the verification mail and releases devices; money (a cancellation, its refund, an
 * invoice) is the admins'.
 */
export const adminActionRoutes: FastifyPluginAsyncZod<{ deps: AdminActionDeps & { users: UsersRepo; sessions: Sessions }; guards: Guards }> = async (app, { deps, guards }) => {
  app.post(
    '/users/:id/sessions/end',
    { onRequest: guards.staff, config: { permission: 'users.endSessions' }, schema: { params: userIdParamsSchema, response: { 200: adminSessionsEndedSchema } } },
    async (request) => endSessionsOf(deps, actorOf(request), request.params.id),
  );

  app.post(
    '/users/:id/verification/resend',
    { onRequest: guards.staff, config: { permission: 'users.resendVerification' }, schema: { params: userIdParamsSchema, response: { 200: adminResendResponseSchema } } },
    async (request) => resendVerificationOf(deps, actorOf(request), request.params.id),
  );

  app.post(
    '/users/:id/subscription/cancel',
    { onRequest: guards.staff, config: { permission: 'billing.cancel' }, schema: { params: userIdParamsSchema, body: adminCancelRequestSchema, response: { 200: subscriptionSchema } } },
    async (request) => {
      // A cancellation with its refund gives money back: it needs the refund's permission as well.
      if (request.body.refund && !hasPermission(currentUser(request).roles, 'billing.refund')) throw new AppError('FORBIDDEN', 403);
      return cancelSubscriptionOf(deps, actorOf(request), request.params.id, request.body.refund);
    },
  );

  app.post(
    '/users/:id/devices/:deviceId/release',
    { onRequest: guards.staff, config: { permission: 'users.releaseDevices' }, schema: { params: userDeviceParamsSchema, response: { 200: adminReleaseResponseSchema } } },
    async (request) => releaseDeviceOf(deps, actorOf(request), request.params.id, request.params.deviceId),
  );

  // The PDF link is Paddle's, short-lived: the page asks for it when support clicks, then opens it.
  app.get(
    '/users/:id/transactions/:transactionId/invoice',
    { onRequest: guards.staff, config: { permission: 'billing.read' }, schema: { params: userTransactionParamsSchema, response: { 200: invoiceLinkSchema } } },
    async (request) => invoiceLinkOf(deps, request.params.id, request.params.transactionId),
  );

  // Issue 47: a read-only view of the customer's account, opened by the web app in a tab of its own.
  app.post(
    '/users/:id/view-as',
    { onRequest: guards.staff, config: { permission: 'users.viewAs' }, schema: { params: userIdParamsSchema, response: { 200: viewAsResponseSchema } } },
    async (request) => viewAs(deps, staffActorOf(request), request.params.id),
  );
};
