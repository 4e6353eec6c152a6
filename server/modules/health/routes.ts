import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthSchema } from '../../../contract/health.js';
import { ping, type Db } from '../../db/index.js';

export const healthRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get('/health', { schema: { response: { 200: healthSchema } } }, async () => {
    await ping(db);
    return { status: 'ok' as const };
  });
};
