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

/** Registration and email verification (spec sections 2, 4 and 7); all public, limited per address. */
export const registrationRoutes: FastifyPluginAsyncZod<{ deps: registration.RegistrationDeps }> = async (app, { deps }) => {
  app.post(
    '/users',
    {
      config: PER_ADDRESS_LIMIT,
      schema: { querystring: registrationQuerySchema, body: registrationRequestSchema, response: { 201: registrationResponseSchema } },
    },
    async (request, reply) => {
      const user = await registration.register(deps, request.body, {
        withCode: request.query.generateVerificationCode ?? false,
        external: request.query.externalRegistration ?? false,
        language: languageFrom(request.headers['accept-language']),
      });
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
    async (request) => registration.verifyLink(deps, request.params.token),
  );

  app.get(
    '/users/resendVerificationEmail/:email',
    {
      config: PER_ADDRESS_LIMIT,
      schema: { params: z.object({ email: emailSchema }), querystring: resendQuerySchema, response: { 200: resendResponseSchema } },
    },
    async (request) =>
      registration.resendVerification(deps, request.params.email, request.query.generateVerificationCode ?? false),
  );
};
