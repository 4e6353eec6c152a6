import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  changePasswordRequestSchema,
  changePasswordResponseSchema,
  checkOldPasswordRequestSchema,
  checkOldPasswordResponseSchema,
  checkResetTokenResponseSchema,
  okResponseSchema,
  resetPasswordRequestSchema,
} from '../../../contract/account.js';
import { emailSchema } from '../../../contract/auth.js';
import { currentSession, currentUser, type Guards } from '../../plugins/authentication.js';
import { countFailedGuess, GUESS_LIMITS } from '../../plugins/guess-limits.js';
import { PER_ADDRESS_LIMIT } from '../../plugins/rate-limits.js';
import * as account from './account.js';

/** The password: forgotten (a reset link by mail), checked and changed by its owner (spec sections 2, 4 and 7). */
export const passwordRoutes: FastifyPluginAsyncZod<{ deps: account.AccountDeps; guards: Guards }> = async (app, { deps, guards }) => {
  app.get(
    '/users/forget-password/:email',
    { config: PER_ADDRESS_LIMIT, schema: { params: z.object({ email: emailSchema }), response: { 200: okResponseSchema } } },
    async (request) => account.requestPasswordReset(deps, request.params.email),
  );

  app.get(
    '/users/forget-password/check-token/:token',
    {
      config: { ...PER_ADDRESS_LIMIT, guessLimit: GUESS_LIMITS.resetLink },
      schema: { params: z.object({ token: z.string().min(1).max(128) }), response: { 200: checkResetTokenResponseSchema } },
    },
    async (request) => {
      const checked = await account.checkResetToken(deps, request.params.token);
      if (!checked.valid) await countFailedGuess(request);
      return checked;
    },
  );

  app.patch(
    '/users/forget-password/validate-token',
    { config: { ...PER_ADDRESS_LIMIT, guessLimit: GUESS_LIMITS.resetLink }, schema: { body: resetPasswordRequestSchema, response: { 200: okResponseSchema } } },
    async (request) => account.resetPassword(deps, request.body.passwordToken, request.body.newPassword),
  );

  app.post(
    '/users/checkOldPassword',
    { onRequest: guards.user, schema: { body: checkOldPasswordRequestSchema, response: { 200: checkOldPasswordResponseSchema } } },
    async (request) => account.checkOldPassword(deps, currentUser(request), request.body.oldPassword),
  );

  app.patch(
    '/users/password',
    { onRequest: guards.user, schema: { body: changePasswordRequestSchema, response: { 200: changePasswordResponseSchema } } },
    async (request) => account.changePassword(deps, currentUser(request), currentSession(request), request.body),
  );
};
