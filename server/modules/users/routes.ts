import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { meSchema } from '../../../contract/users.js';
import { currentUser, type Guards } from '../../plugins/authentication.js';
import { meOf, type MeDeps } from './service.js';

/** The current user (spec section 3: roles, email, subscription id, the upgrade discount flag). */
export const meRoutes: FastifyPluginAsyncZod<{ deps: MeDeps; guards: Guards }> = async (app, { deps, guards }) => {
  // Open to a staff member who must still enrol a second factor (issue 44): the web app learns it here.
  app.get('/users/me', { onRequest: guards.user, config: { duringTwoFactorEnrolment: true }, schema: { response: { 200: meSchema } } }, async (request) =>
    meOf(deps, currentUser(request), { twoFactorEnrolmentRequired: request.twoFactorEnrolmentRequired }),
  );
};
