import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  authorizeQuerySchema,
  authorizeResponseSchema,
  callbackRequestSchema,
  providerParamsSchema,
  socialLoginResponseSchema,
} from '../../../contract/oauth.js';
import { meSchema } from '../../../contract/users.js';
import { languageFrom } from '../../i18n.js';
import { clientOf, currentUser, type Guards } from '../../plugins/authentication.js';
import { PER_ADDRESS_LIMIT } from '../../plugins/rate-limits.js';
import * as oauth from './service.js';

/** Google and Facebook sign-in, connect and disconnect (spec section 7), over openid-client. */
export const oauthRoutes: FastifyPluginAsyncZod<{ deps: oauth.OAuthDeps; guards: Guards }> = async (app, { deps, guards }) => {
  const clients = new oauth.SocialClients(deps.social);

  app.get(
    '/auth/:provider/login',
    { config: PER_ADDRESS_LIMIT, schema: { params: providerParamsSchema, querystring: authorizeQuerySchema, response: { 200: authorizeResponseSchema } } },
    async (request) => oauth.authorize(deps, clients, request.params.provider, request.query.redirectUrl),
  );

  app.post(
    '/auth/:provider/redirect',
    { config: PER_ADDRESS_LIMIT, schema: { params: providerParamsSchema, body: callbackRequestSchema, response: { 200: socialLoginResponseSchema } } },
    async (request) =>
      oauth.signIn(deps, clients, request.params.provider, request.body, languageFrom(request.headers['accept-language']), clientOf(request)),
  );

  app.post(
    '/auth/:provider/connect',
    { onRequest: guards.user, schema: { params: providerParamsSchema, body: callbackRequestSchema, response: { 200: meSchema } } },
    async (request) => oauth.connect(deps, clients, currentUser(request), request.params.provider, request.body),
  );

  app.post(
    '/auth/facebook/disconnect',
    { onRequest: guards.user, schema: { body: callbackRequestSchema, response: { 200: meSchema } } },
    async (request) => oauth.disconnectFacebook(deps, clients, currentUser(request), request.body),
  );

  app.patch(
    '/users/me/disconnectSocial/:provider',
    { onRequest: guards.user, schema: { params: providerParamsSchema, response: { 200: meSchema } } },
    async (request) => oauth.disconnect(deps, currentUser(request), request.params.provider),
  );
};
