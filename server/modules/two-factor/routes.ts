import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { twoFactorLoginResponseSchema } from '../../../contract/auth.js';
import {
  passkeyOptionsResponseSchema,
  passkeyParamsSchema,
  passkeyRegisterRequestSchema,
  passkeyRenameRequestSchema,
  passkeySignInOptionsResponseSchema,
  passkeySignInRequestSchema,
  passkeyViewSchema,
  reauthenticationSchema,
  recoveryCodesResponseSchema,
  totpConfirmRequestSchema,
  totpSetupResponseSchema,
  twoFactorLoginRequestSchema,
  twoFactorPasskeyOptionsRequestSchema,
  twoFactorStatusSchema,
} from '../../../contract/two-factor.js';
import { userIdParamsSchema } from '../../../contract/users.js';
import { clientOf, currentSession, currentUser, staffActorOf, type Guards } from '../../plugins/authentication.js';
import { GUESS_LIMITS } from '../../plugins/guess-limits.js';
import { PER_ADDRESS_LIMIT } from '../../plugins/rate-limits.js';
import { resetTwoFactorOf } from './admin.js';
import type { TwoFactorDeps } from './deps.js';
import { confirmTotpSetup, disableTotp, renewRecoveryCodes, startTotpSetup, statusOf } from './enrolment.js';
import { listPasskeys, registerPasskey, removeOwnPasskey, renameOwnPasskey, startRegistration } from './passkeys.js';
import { completeSignIn, passkeyOptionsFor, passkeySignIn, passkeySignInOptions } from './sign-in.js';

/**
 * Issue 44: the second factor. The account's own routes answer a staff member who must still enrol one
 * (`duringTwoFactorEnrolment`); every code or password they take is guess-limited per account and address.
 */
const ENROLMENT = { duringTwoFactorEnrolment: true } as const;
const GUESSED = { ...ENROLMENT, guessLimit: GUESS_LIMITS.twoFactor };

export const twoFactorRoutes: FastifyPluginAsyncZod<{ deps: TwoFactorDeps; guards: Guards }> = async (app, { deps, guards }) => {
  // The authenticator app and recovery codes.
  app.get('/users/me/two-factor', { onRequest: guards.user, config: ENROLMENT, schema: { response: { 200: twoFactorStatusSchema } } }, async (request) =>
    statusOf(deps, currentUser(request).id),
  );

  app.post('/users/me/two-factor/totp', { onRequest: guards.user, config: ENROLMENT, schema: { response: { 200: totpSetupResponseSchema } } }, async (request) =>
    startTotpSetup(deps, currentUser(request)),
  );

  app.post(
    '/users/me/two-factor/totp/confirm',
    { onRequest: guards.user, config: GUESSED, schema: { body: totpConfirmRequestSchema, response: { 200: recoveryCodesResponseSchema } } },
    async (request) => confirmTotpSetup(deps, currentUser(request), request.body.code),
  );

  app.delete(
    '/users/me/two-factor',
    { onRequest: guards.user, config: GUESSED, schema: { body: reauthenticationSchema.nullish(), response: { 204: z.null() } } },
    async (request, reply) => {
      await disableTotp(deps, currentUser(request), currentSession(request), request.body ?? {});
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/users/me/two-factor/recovery-codes',
    { onRequest: guards.user, config: GUESSED, schema: { body: reauthenticationSchema, response: { 200: recoveryCodesResponseSchema } } },
    async (request) => renewRecoveryCodes(deps, currentUser(request), currentSession(request), request.body),
  );

  // Passkeys.
  app.get('/users/me/passkeys', { onRequest: guards.user, config: ENROLMENT, schema: { response: { 200: z.array(passkeyViewSchema) } } }, async (request) =>
    listPasskeys(deps, currentUser(request).id),
  );

  app.post(
    '/users/me/passkeys/registration',
    { onRequest: guards.user, config: ENROLMENT, schema: { response: { 200: passkeyOptionsResponseSchema } } },
    async (request) => startRegistration(deps, currentUser(request)),
  );

  app.post(
    '/users/me/passkeys',
    { onRequest: guards.user, config: ENROLMENT, schema: { body: passkeyRegisterRequestSchema, response: { 200: passkeyViewSchema } } },
    async (request) => registerPasskey(deps, currentUser(request), request.body),
  );

  app.patch(
    '/users/me/passkeys/:id',
    { onRequest: guards.user, config: ENROLMENT, schema: { params: passkeyParamsSchema, body: passkeyRenameRequestSchema, response: { 200: passkeyViewSchema } } },
    async (request) => renameOwnPasskey(deps, currentUser(request).id, request.params.id, request.body.name),
  );

  app.delete(
    '/users/me/passkeys/:id',
    { onRequest: guards.user, config: GUESSED, schema: { params: passkeyParamsSchema, body: reauthenticationSchema.nullish(), response: { 204: z.null() } } },
    async (request, reply) => {
      await removeOwnPasskey(deps, currentUser(request), currentSession(request), request.params.id, request.body ?? {});
      return reply.code(204).send(null);
    },
  );

  // Signing in: the second step, and a passkey alone.
  app.post(
    '/auth/login/two-factor',
    {
      config: { ...PER_ADDRESS_LIMIT, guessLimit: GUESS_LIMITS.twoFactor },
      schema: { body: twoFactorLoginRequestSchema, response: { 200: twoFactorLoginResponseSchema } },
    },
    async (request) => completeSignIn(deps, request.body, clientOf(request)),
  );

  app.post(
    '/auth/login/two-factor/passkey',
    { config: PER_ADDRESS_LIMIT, schema: { body: twoFactorPasskeyOptionsRequestSchema, response: { 200: passkeyOptionsResponseSchema } } },
    async (request) => passkeyOptionsFor(deps, request.body.challenge),
  );

  app.post('/auth/passkey/options', { config: PER_ADDRESS_LIMIT, schema: { response: { 200: passkeySignInOptionsResponseSchema } } }, async () =>
    passkeySignInOptions(deps),
  );

  app.post(
    '/auth/passkey',
    { config: PER_ADDRESS_LIMIT, schema: { body: passkeySignInRequestSchema, response: { 200: twoFactorLoginResponseSchema } } },
    async (request) => passkeySignIn(deps, request.body, clientOf(request)),
  );

  // Support: a user who lost every second factor.
  app.delete(
    '/users/:id/two-factor',
    { onRequest: guards.staff, config: { permission: 'users.resetTwoFactor' }, schema: { params: userIdParamsSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await resetTwoFactorOf(deps, staffActorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
