import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthSchema, notReadySchema, readySchema } from '../../../contract/health.js';
import { ping, type Db } from '../../db/index.js';
import type { Readiness } from './readiness.js';

/** Liveness (`/health`: the process and its database answer) and readiness (`/health/ready`, ./readiness.ts). */
export const healthRoutes: FastifyPluginAsyncZod<{ db: Db; readiness: Readiness }> = async (app, { db, readiness }) => {
  app.get('/health', { schema: { response: { 200: healthSchema } } }, async () => {
    await ping(db);
    return { status: 'ok' as const };
  });

  app.get('/health/ready', { schema: { response: { 200: readySchema, 503: notReadySchema } } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    const reasons = await readiness.reasons();
    if (reasons.length > 0) return reply.code(503).send({ status: 'unavailable' as const, reasons });
    return { status: 'ready' as const };
  });
};
