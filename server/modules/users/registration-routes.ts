import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PER_ADDRESS_LIMIT } from '../../plugins/rate-limits.js';
import { GUESS_LIMITS } from '../../plugins/guess-limits.js';
import { z } from 'zod';
import { emailSchema } from '../../../contract/auth.js';
import {
  registrationQuerySchema,
  registrationRequestSchema,
  registrationResponseSchema,
  resendQuerySchema,
  resendResponseSchema,
  verifyCodeRequestSchema,
  verifyCodeResponseSchema,
  verifyLinkResponseSchema,
} from '../../../contract/registration.js';
import { languageFrom } from '../../i18n.js';
import * as registration from './registration.js';
import { clientOf } from '../../plugins/authentication.js';
import { browserKeyCookie, browserKeyOf, clearedBrowserKeyCookie, newBrowserKey } from './verification-browser.js';

/** Registration and email verification (spec sections 2, 4 and 7); all public, limited per address. */
export const registrationRoutes: FastifyPluginAsyncZod<{ deps: registration.RegistrationDeps }> = async (app, { deps }) => {
  app.post(
    '/users',
    {
      config: PER_ADDRESS_LIMIT,
      schema: { querystring: registrationQuerySchema, body: registrationRequestSchema, response: { 201: registrationResponseSchema } },
    },
    async (request, reply) => {
      const browser = newBrowserKey();
      const user = await registration.register(deps, request.body, {
        withCode: request.query.generateVerificationCode ?? false,
        external: request.query.externalRegistration ?? false,
        language: languageFrom(request.headers['accept-language']),
        browserHash: browser.hash,
      });
      // The mailed link signs in only in this browser (./verification-browser.ts).
      reply.header('set-cookie', browserKeyCookie(browser.key, deps.appUrl, registration.VERIFICATION_TTL_SECONDS));
      return reply.code(201).send({ id: user.id, email: user.email, emailVerified: false });
    },
  );

  app.post(
    '/users/validate/code',
    { config: { ...PER_ADDRESS_LIMIT, guessLimit: GUESS_LIMITS.signupCode }, schema: { body: verifyCodeRequestSchema, response: { 200: verifyCodeResponseSchema } } },
    async (request) => registration.verifyCode(deps, request.body.email, request.body.code, clientOf(request)),
  );

  app.get(
    '/users/validate/:token',
    {
      config: { ...PER_ADDRESS_LIMIT, guessLimit: GUESS_LIMITS.verificationLink },
      // Any length: a truncated link must hear 'invalid link' (and the page offers a resend), not 'invalid fields'.
      schema: { params: z.object({ token: z.string().max(1024) }), response: { 200: verifyLinkResponseSchema } },
    },
    async (request, reply) => {
      const verified = await registration.verifyLink(deps, request.params.token, browserKeyOf(request.headers.cookie), clientOf(request));
      // The key has done its work: the account is verified and this browser signed in.
      if (verified.access_token) reply.header('set-cookie', clearedBrowserKeyCookie(deps.appUrl));
      return verified;
    },
  );

  app.get(
    '/users/resendVerificationEmail/:email',
    {
      config: PER_ADDRESS_LIMIT,
      schema: { params: z.object({ email: emailSchema }), querystring: resendQuerySchema, response: { 200: resendResponseSchema } },
    },
    async (request, reply) => {
      // Every asker gets a key, whether or not the address waits for verification (the answer is the same for all).
      const browser = newBrowserKey();
      const sent = await registration.resendVerification(deps, request.params.email, request.query.generateVerificationCode ?? false, browser.hash);
      reply.header('set-cookie', browserKeyCookie(browser.key, deps.appUrl, registration.VERIFICATION_TTL_SECONDS));
      return sent;
    },
  );
};
