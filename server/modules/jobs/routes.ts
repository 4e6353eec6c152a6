import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { jobIdParamsSchema, jobSchema, jobsQuerySchema, jobsResponseSchema } from '../../../contract/jobs.js';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { staffActorOf, type Guards } from '../../plugins/authentication.js';
import { listJobs, retryJob } from './admin.js';

/** The job queue for admins: what waits, what failed and why, and a failed job tried again. */
export const jobRoutes: FastifyPluginAsyncZod<{ db: Kysely<Database>; clock: Clock; guards: Guards }> = async (app, { db, clock, guards }) => {
  app.get('/admin/jobs', { onRequest: guards.staff, config: { permission: 'jobs.read' }, schema: { querystring: jobsQuerySchema, response: { 200: jobsResponseSchema } } }, async (request) =>
    listJobs(db, request.query),
  );

  app.post(
    '/admin/jobs/:id/retry',
    { onRequest: guards.staff, config: { permission: 'jobs.retry' }, schema: { params: jobIdParamsSchema, response: { 200: jobSchema } } },
    async (request) => retryJob(db, clock, request.params.id, staffActorOf(request)),
  );
};
