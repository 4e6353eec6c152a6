import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  activateRequestSchema,
  activateResponseSchema,
  exportReportSchema,
  heartbeatRequestSchema,
  heartbeatResponseSchema,
  redeemRequestSchema,
  redeemResponseSchema,
  reportAckSchema,
  reportsBatchAckSchema,
  reportsBatchSchema,
  seatReleaseQuerySchema,
  seatsResponseSchema,
  sessionReportSchema,
} from '../../../contract/licensing.js';
import { AppError } from '../../errors.js';
import { currentUser, presentedBearer, type Guards } from '../../plugins/authentication.js';
import { GUESS_LIMITS } from '../../plugins/guess-limits.js';
import { type LiteKeyDeps, claimLiteKey } from '../lite-keys/index.js';
import { activateDevice, heartbeat, releaseSeat, reportBatch, reportExport, reportSession, seatForToken, seatsOf, type DeviceDeps, type HeartbeatDeps } from './service.js';

/** The device token from `Authorization: Bearer sld_...`, resolved to its seat. */
async function deviceSeat(deps: DeviceDeps, request: FastifyRequest) {
  const token = presentedBearer(request);
  if (!token) throw new AppError('DEVICE_TOKEN_INVALID', 401);
  return seatForToken(deps.db, token);
}

/**
 * The user's seats (spec section 7: `DELETE /perpetual/seats?id=`) and the desktop API the application
 * uses: activate with the user's access token, then everything else with the device token it got.
 */
export const deviceRoutes: FastifyPluginAsyncZod<{ deps: HeartbeatDeps & LiteKeyDeps; guards: Guards }> = async (app, { deps, guards }) => {
  app.get('/perpetual/seats', { onRequest: guards.user, schema: { response: { 200: seatsResponseSchema } } }, async (request) =>
    seatsOf(deps, currentUser(request).id),
  );

  app.delete(
    '/perpetual/seats',
    { onRequest: guards.user, schema: { querystring: seatReleaseQuerySchema, response: { 200: z.object({ released: z.literal(true) }) } } },
    async (request) => releaseSeat(deps, currentUser(request).id, request.query.id),
  );

  app.post(
    '/desktop/activate',
    { onRequest: guards.user, config: { guessLimit: GUESS_LIMITS.activation }, schema: { body: activateRequestSchema, response: { 200: activateResponseSchema } } },
    async (request) => activateDevice(deps, currentUser(request).id, request.body),
  );

  app.post('/desktop/heartbeat', { schema: { body: heartbeatRequestSchema.optional(), response: { 200: heartbeatResponseSchema } } }, async (request) =>
    heartbeat(deps, await deviceSeat(deps, request), request.body ?? {}),
  );

  app.post('/desktop/sessions', { schema: { body: sessionReportSchema, response: { 200: reportAckSchema } } }, async (request) =>
    reportSession(deps, await deviceSeat(deps, request), request.body),
  );

  app.post('/desktop/exports', { schema: { body: exportReportSchema, response: { 200: reportAckSchema } } }, async (request) =>
    reportExport(deps, await deviceSeat(deps, request), request.body),
  );

  app.post('/desktop/reports', { schema: { body: reportsBatchSchema, response: { 200: reportsBatchAckSchema } } }, async (request) =>
    reportBatch(deps, await deviceSeat(deps, request), request.body),
  );

  app.post('/desktop/lite-keys/claim', { config: { guessLimit: GUESS_LIMITS.liteKey }, schema: { body: redeemRequestSchema, response: { 200: redeemResponseSchema } } }, async (request) => {
    const seat = await deviceSeat(deps, request);
    return { grant: await claimLiteKey(deps, seat.user_id, request.body.code) };
  });
};
