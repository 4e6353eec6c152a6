import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { downloadedRequestSchema, releaseCreateSchema, releaseSchema, releasesResponseSchema } from '../../../contract/licensing.js';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { currentUser, staffActorOf, type Guards } from '../../plugins/authentication.js';
import { type EventBus } from '../events/index.js';
import { addRelease, latestReleases, recordDownload } from './service.js';

/** Downloads of the desktop application: the newest builds, admins adding one, and recording a download. */
export const releaseRoutes: FastifyPluginAsyncZod<{ deps: { db: Kysely<Database>; clock: Clock; bus: Pick<EventBus, 'announce'> }; guards: Guards }> = async (
  app,
  { deps, guards },
) => {
  app.get('/releases/latest', { schema: { response: { 200: releasesResponseSchema } } }, async () => latestReleases(deps));

  app.post(
    '/releases',
    { onRequest: guards.staff, config: { permission: 'releases.create' }, schema: { body: releaseCreateSchema, response: { 200: releaseSchema } } },
    async (request) => addRelease(deps, request.body, staffActorOf(request)),
  );

  app.post(
    '/users/downloadedShapelab',
    { onRequest: guards.user, schema: { body: downloadedRequestSchema.optional(), response: { 200: z.object({ recorded: z.literal(true) }) } } },
    async (request) => recordDownload(deps, currentUser(request).id, request.body ?? {}),
  );
};
