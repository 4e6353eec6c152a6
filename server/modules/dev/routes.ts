import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import {
  advanceClockRequestSchema,
  chargebackRequestSchema,
  chargebackResponseSchema,
  clockResponseSchema,
  outboxQuerySchema,
  outboxResponseSchema,
} from '../../../contract/dev.js';
import { type JobQueue } from '../jobs/index.js';
import type { MovableClock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import type { Guards } from '../../plugins/authentication.js';
import { listOutbox, raiseChargeback } from './service.js';

/**
 * Development and test helpers. server/app.ts registers them only outside production: the mailbox only
 * with MAIL_TRANSPORT=outbox, the clock only with a movable clock.
 */
export const devOutboxRoutes: FastifyPluginAsyncZod<{ db: Kysely<Database>; jobs: JobQueue }> = async (
  app,
  { db, jobs },
) => {
  app.get('/dev/outbox', { schema: { querystring: outboxQuerySchema, response: { 200: outboxResponseSchema } } }, async (request) => {
    // Mail still queued (a reset or resend answers before its mail is out) belongs in the answer.
    await jobs.idle();
    return listOutbox(db, request.query.to);
  });
};

export const devClockRoutes: FastifyPluginAsyncZod<{ clock: MovableClock }> = async (app, { clock }) => {
  app.post('/dev/clock', { schema: { body: advanceClockRequestSchema, response: { 200: clockResponseSchema } } }, async (request) => {
    clock.advance(request.body.advanceSeconds);
    return { now: clock.now().toISOString() };
  });
};

/**
 * Issue 46 item 9: a chargeback raised at the offline Paddle stand-in, for trying what the portal takes back
 * (staff only: it acts on anyone's payment). Only with the stand-in, never in production.
 */
export const devChargebackRoutes: FastifyPluginAsyncZod<{ standin: { baseUrl: string; apiKey: string }; guards: Guards }> = async (app, { standin, guards }) => {
  app.post('/dev/chargeback', { onRequest: guards.staff, config: { permission: 'billing.refund' }, schema: { body: chargebackRequestSchema, response: { 200: chargebackResponseSchema } } }, async (request) =>
    raiseChargeback(standin, request.body.transactionId, request.body.reverse === true),
  );
};
