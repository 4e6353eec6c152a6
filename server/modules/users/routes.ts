import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listUsersQuerySchema, listUsersResponseSchema, meSchema } from '../../../contract/users.js';
import { currentUser, type Guards } from '../../plugins/authentication.js';
import type { UsersRepo } from './repo.js';
import { getMe, listUsers } from './service.js';

export const usersRoutes: FastifyPluginAsyncZod<{ users: UsersRepo; guards: Guards }> = async (
  app,
  { users, guards },
) => {
  app.get(
    '/users/me',
    { onRequest: guards.user, schema: { response: { 200: meSchema } } },
    async (request) => getMe(currentUser(request)),
  );

  app.get(
    '/users',
    { onRequest: guards.admin, schema: { querystring: listUsersQuerySchema, response: { 200: listUsersResponseSchema } } },
    async (request) => listUsers(users, request.query),
  );
};
