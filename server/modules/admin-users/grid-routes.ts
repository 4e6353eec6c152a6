import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminUserSchema,
  bulkUsersRequestSchema,
  bulkUsersResponseSchema,
  exportUsersQuerySchema,
  listUsersQuerySchema,
  listUsersResponseSchema,
  updateRolesSchema,
  userIdParamsSchema,
} from '../../../contract/users.js';
import { currentUser, type Guards } from '../../plugins/authentication.js';
import { listUsers } from '../users/index.js';
import { changeRoles, deleteUser, type AdminDeps } from './admin.js';
import { bulkUsers } from './bulk.js';
import { usersCsv } from './csv-export.js';
import { refuseInvalidQuery } from './filters.js';

/**
 * The admin users grid (spec section 7, issue 21): the list with its search, filters, sort and pages, a
 * row's role change and deletion, and the tools for support work (issue 21 item 2): the CSV of the
 * filtered list and the bulk actions on selected users. `/users/export` is a static path, which Fastify's
 * router always prefers to the parametric `/users/:id`.
 */
export const usersGridRoutes: FastifyPluginAsyncZod<{ admin: AdminDeps; guards: Guards }> = async (app, { admin, guards }) => {
  app.get(
    '/users',
    { onRequest: guards.admin, attachValidation: true, schema: { querystring: listUsersQuerySchema, response: { 200: listUsersResponseSchema } } },
    async (request) => {
      refuseInvalidQuery(request);
      return listUsers(admin, request.query);
    },
  );

  app.patch(
    '/users/:id',
    { onRequest: guards.admin, schema: { params: userIdParamsSchema, body: updateRolesSchema, response: { 200: adminUserSchema } } },
    async (request) => changeRoles(admin, currentUser(request).id, request.params.id, request.body.roles),
  );

  app.delete('/users/:id', { onRequest: guards.admin, schema: { params: userIdParamsSchema, response: { 200: z.object({ id: z.string() }) } } }, async (request) =>
    deleteUser(admin, currentUser(request).id, request.params.id),
  );

  app.get('/users/export', { onRequest: guards.admin, attachValidation: true, schema: { querystring: exportUsersQuerySchema } }, async (request, reply) => {
    refuseInvalidQuery(request);
    const day = admin.clock.now().toISOString().slice(0, 10);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="shapelab-users-${day}.csv"`)
      .header('cache-control', 'no-store')
      .send(usersCsv(admin, request.query));
  });

  app.post(
    '/users/bulk',
    { onRequest: guards.admin, schema: { body: bulkUsersRequestSchema, response: { 200: bulkUsersResponseSchema } } },
    async (request) => bulkUsers(admin, currentUser(request).id, request.body),
  );
};
