import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PER_ADDRESS_LIMIT } from '../../plugins/rate-limits.js';
import { countFailedGuess, GUESS_LIMITS } from '../../plugins/guess-limits.js';
import { z } from 'zod';
import {
  changePasswordRequestSchema,
  changePasswordResponseSchema,
  checkOldPasswordRequestSchema,
  checkOldPasswordResponseSchema,
  checkResetTokenResponseSchema,
  emailChangeConfirmSchema,
  emailChangeRequestSchema,
  emailChangeResponseSchema,
  okResponseSchema,
  profileUpdateSchema,
  resetPasswordRequestSchema,
} from '../../../contract/account.js';
import { emailSchema } from '../../../contract/auth.js';
import { meSchema } from '../../../contract/users.js';
import { currentSession, currentUser, type Guards } from '../../plugins/authentication.js';
import * as account from './account.js';
import { confirmEmailChange, requestEmailChange, type EmailChangeDeps } from './email-change.js';

/** Forgot password, password change and profile (spec sections 2, 4 and 7). */
export const accountRoutes: FastifyPluginAsyncZod<{ deps: account.AccountDeps; emailChange: EmailChangeDeps; guards: Guards }> = async (
  app,
  { deps, emailChange, guards },
) => {
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

  app.patch(
    '/users/me',
    { onRequest: guards.user, schema: { body: profileUpdateSchema, response: { 200: meSchema } } },
    async (request) => account.updateProfile(deps, currentUser(request), request.body),
  );

  // Issue 20 item 7: a new sign-in address, proven by a code mailed to it.
  app.post(
    '/users/me/email',
    { onRequest: guards.user, schema: { body: emailChangeRequestSchema, response: { 200: emailChangeResponseSchema } } },
    async (request) => requestEmailChange(emailChange, currentUser(request), request.body),
  );

  app.post(
    '/users/me/email/confirm',
    { onRequest: guards.user, config: { guessLimit: GUESS_LIMITS.emailChangeCode }, schema: { body: emailChangeConfirmSchema, response: { 200: meSchema } } },
    async (request) => confirmEmailChange(emailChange, currentUser(request), request.body.code),
  );
};
