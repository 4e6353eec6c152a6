import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { emailChangeConfirmSchema, emailChangeRequestSchema, emailChangeResponseSchema, profileUpdateSchema } from '../../../contract/account.js';
import { meSchema } from '../../../contract/users.js';
import { currentSession, currentUser, type Guards } from '../../plugins/authentication.js';
import { GUESS_LIMITS } from '../../plugins/guess-limits.js';
import { updateProfile, type AccountDeps } from './account.js';
import { confirmEmailChange, requestEmailChange, type EmailChangeDeps } from './email-change.js';
import { meOf } from './service.js';

/**
 * The current user (spec section 3: roles, email, subscription id, the upgrade discount flag), the profile
 * fields they own (spec section 7), and the sign-in email's change (issue 20 item 7).
 */
export const profileRoutes: FastifyPluginAsyncZod<{ deps: AccountDeps; emailChange: EmailChangeDeps; guards: Guards }> = async (
  app,
  { deps, emailChange, guards },
) => {
  // Open to a staff member who must still enrol a second factor (issue 44): the web app learns it here.
  app.get('/users/me', { onRequest: guards.user, config: { duringTwoFactorEnrolment: true }, schema: { response: { 200: meSchema } } }, async (request) =>
    meOf(deps, currentUser(request), {
      twoFactorEnrolmentRequired: request.twoFactorEnrolmentRequired,
      readOnlyView: request.viewedBy === null ? null : { expiresAt: new Date(currentSession(request).expires_at).toISOString() },
    }),
  );

  app.patch(
    '/users/me',
    { onRequest: guards.user, schema: { body: profileUpdateSchema, response: { 200: meSchema } } },
    async (request) => updateProfile(deps, currentUser(request), request.body),
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
