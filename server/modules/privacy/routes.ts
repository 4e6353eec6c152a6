import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deleteAccountRequestSchema } from '../../../contract/account.js';
import { currentSession, currentUser, type Guards } from '../../plugins/authentication.js';
import { type UsersRepo } from '../users/index.js';
import { deleteOwnAccount, type DeletionDeps } from './deletion.js';
import { exportOwnData } from './export.js';

/** Issue 17 (GDPR articles 17 and 20): the user deletes their account, or takes their data with them. */
export const privacyRoutes: FastifyPluginAsyncZod<{ deps: DeletionDeps & { users: Pick<UsersRepo, 'findById'> }; guards: Guards }> = async (app, { deps, guards }) => {
  app.delete(
    '/users/me',
    { onRequest: guards.user, schema: { body: deleteAccountRequestSchema.nullish(), response: { 204: z.null() } } },
    async (request, reply) => {
      await deleteOwnAccount(deps, currentUser(request), currentSession(request), { password: request.body?.password });
      return reply.code(204).send(null);
    },
  );

  app.get('/users/me/export', { onRequest: guards.user }, async (request, reply) => {
    const data = await exportOwnData(deps, currentUser(request));
    return reply
      .header('content-disposition', `attachment; filename="shapelab-data-${data.exportedAt.slice(0, 10)}.json"`)
      .header('cache-control', 'no-store')
      .type('application/json; charset=utf-8')
      .send(JSON.stringify(data, null, 2));
  });
};
