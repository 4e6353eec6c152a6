import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  liteKeysImportResponseSchema,
  liteKeysImportSchema,
  liteKeysQuerySchema,
  liteKeysResponseSchema,
  redeemRequestSchema,
  redeemResponseSchema,
} from '../../../contract/licensing.js';
import { currentUser, staffActorOf, type Guards } from '../../plugins/authentication.js';
import { GUESS_LIMITS } from '../../plugins/guess-limits.js';
import { claimLiteKey, exportUnusedKeys, importLiteKeys, listUnusedKeys, type LiteKeyDeps } from './service.js';

/** Issue 47: the unused keys are licences to be given away; admins only. */
const MANAGE = { permission: 'liteKeys.manage' } as const;

/** Shapelab Lite keys: admins import, list and export the unused ones; a user claims one once. */
export const liteKeyRoutes: FastifyPluginAsyncZod<{ deps: LiteKeyDeps; guards: Guards }> = async (app, { deps, guards }) => {
  app.get('/lite-keys', { onRequest: guards.staff, config: MANAGE, schema: { querystring: liteKeysQuerySchema, response: { 200: liteKeysResponseSchema } } }, async (request) =>
    listUnusedKeys(deps.db, request.query),
  );

  app.get(
    '/lite-keys/export',
    { onRequest: guards.staff, config: MANAGE, schema: { querystring: z.object({ search: z.string().trim().max(100).optional() }) } },
    async (request, reply) => {
      const csv = await exportUnusedKeys(deps, request.query.search, staffActorOf(request));
      return reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="shapelab-lite-unused-keys.csv"').send(csv);
    },
  );

  app.post(
    '/lite-keys/import',
    { onRequest: guards.staff, config: MANAGE, bodyLimit: 6_000_000, schema: { body: liteKeysImportSchema, response: { 200: liteKeysImportResponseSchema } } },
    async (request) => importLiteKeys(deps, request.body.csv, staffActorOf(request)),
  );

  app.post('/lite-keys/redeem', { onRequest: guards.user, config: { guessLimit: GUESS_LIMITS.liteKey }, schema: { body: redeemRequestSchema, response: { 200: redeemResponseSchema } } }, async (request) => ({
    grant: await claimLiteKey(deps, currentUser(request).id, request.body.code),
  }));
};
