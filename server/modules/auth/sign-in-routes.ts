import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PER_ADDRESS_LIMIT } from '../../plugins/rate-limits.js';
import { z } from 'zod';
import {
  adminLoginRequestSchema,
  adminLoginResponseSchema,
  loginRequestSchema,
  loginResponseSchema,
  logoutRequestSchema,
  validateTokenRequestSchema,
  validateTokenResponseSchema,
} from '../../../contract/auth.js';
import * as auth from './service.js';
import { clientOf, type Guards } from '../../plugins/authentication.js';

/** Sign-in endpoints of spec section 7; attempts per address are rate limited against guessing. */
export const signInRoutes: FastifyPluginAsyncZod<{ deps: auth.AuthDeps; guards: Guards }> = async (app, { deps, guards }) => {
  app.post(
    '/auth/login',
    { config: PER_ADDRESS_LIMIT, schema: { body: loginRequestSchema, response: { 200: loginResponseSchema } } },
    async (request) => auth.login(deps, request.body, clientOf(request)),
  );

  app.post(
    '/auth/admin-login',
    { config: PER_ADDRESS_LIMIT, schema: { body: adminLoginRequestSchema, response: { 200: adminLoginResponseSchema } } },
    async (request) => auth.adminLogin(deps, request.body, clientOf(request)),
  );

  app.post(
    '/auth/validate',
    {
      config: PER_ADDRESS_LIMIT,
      schema: { body: validateTokenRequestSchema, response: { 200: validateTokenResponseSchema } },
    },
    async (request) => auth.renew(deps, request.body.offlineToken, clientOf(request)),
  );

  app.post(
    '/auth/logout',
    { onRequest: guards.signingOut, config: { duringTwoFactorEnrolment: true }, schema: { body: logoutRequestSchema.nullish(), response: { 204: z.null() } } },
    async (request, reply) => {
      const user = request.authUser;
      const session = request.authSession;
      await auth.logout(deps, { offlineToken: request.body?.offlineToken, session: user && session ? { userId: user.id, sessionId: session.id } : null });
      return reply.code(204).send(null);
    },
  );
};
