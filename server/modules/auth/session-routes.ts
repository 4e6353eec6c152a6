import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { sessionIdParamsSchema, sessionsEndedResponseSchema, sessionsResponseSchema, staffViewsResponseSchema } from '../../../contract/account.js';
import type { Database } from '../../db/schema.js';
import { currentSession, currentUser, type Guards } from '../../plugins/authentication.js';
import { activityOfKinds } from '../activity/index.js';
import type { Sessions } from './sessions.js';

/**
 * The user's own sessions (issue 17): where they are signed in, and signing one or all others out.
 * Only the caller's sessions are ever listed or ended; another user's id answers like a missing one.
 */
export const sessionRoutes: FastifyPluginAsyncZod<{ sessions: Sessions; guards: Guards; db: Kysely<Database> }> = async (app, { sessions, guards, db }) => {
  app.get('/users/me/sessions', { onRequest: guards.user, schema: { response: { 200: sessionsResponseSchema } } }, async (request) =>
    sessions.list(currentUser(request).id, currentSession(request).id),
  );

  app.delete(
    '/users/me/sessions/:id',
    { onRequest: guards.user, schema: { params: sessionIdParamsSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await sessions.endOne(currentUser(request).id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  // "Sign out everywhere else": every session but the one asking.
  app.delete('/users/me/sessions', { onRequest: guards.user, schema: { response: { 200: sessionsEndedResponseSchema } } }, async (request) => ({
    ended: await sessions.endAllExcept(currentUser(request).id, currentSession(request).id, 'ended-by-user'),
  }));

  // Issue 47: when support viewed the account as its owner sees it, from the account's timeline (newest first).
  app.get('/users/me/views', { onRequest: guards.user, schema: { response: { 200: staffViewsResponseSchema } } }, async (request) =>
    (await activityOfKinds(db, currentUser(request).id, ['account.viewed'])).map((entry) => ({
      viewedAt: entry.createdAt,
      until: typeof entry.details.until === 'string' ? entry.details.until : null,
    })),
  );
};
