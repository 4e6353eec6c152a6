import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { retentionQuerySchema, retentionResponseSchema } from '../../../contract/retention.js';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import type { Guards } from '../../plugins/authentication.js';
import { retentionOf } from './retention.js';

/** Admin analytics' failed renewals (recovered, lost) and cancellations by reason, per month (issue 46 items 5 and 8). */
export const retentionRoutes: FastifyPluginAsyncZod<{ db: Kysely<Database>; clock: Clock; guards: Guards }> = async (app, { db, guards }) => {
  app.get('/billing/retention', { onRequest: guards.staff, config: { permission: 'analytics.read' }, schema: { querystring: retentionQuerySchema, response: { 200: retentionResponseSchema } } }, async (request) =>
    retentionOf(db, request.query),
  );
};
