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
import { currentUser, staffActorOf, type Guards } from '../../plugins/authentication.js';
import { recordStaffAction } from '../activity/index.js';
import { listUsers } from '../users/index.js';
import { changeRoles, deleteUser, withChargebackMarks, type AdminDeps } from './admin.js';
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
    { onRequest: guards.staff, config: { permission: 'users.read' }, attachValidation: true, schema: { querystring: listUsersQuerySchema, response: { 200: listUsersResponseSchema } } },
    async (request) => {
      refuseInvalidQuery(request);
      const page = await listUsers(admin, request.query);
      return { total: page.total, data: await withChargebackMarks(admin.db, page.data) };
    },
  );

  app.patch(
    '/users/:id',
    { onRequest: guards.staff, config: { permission: 'users.roles' }, schema: { params: userIdParamsSchema, body: updateRolesSchema, response: { 200: adminUserSchema } } },
    async (request) => changeRoles(admin, staffActorOf(request), request.params.id, request.body.roles),
  );

  app.delete(
    '/users/:id',
    { onRequest: guards.staff, config: { permission: 'users.delete' }, schema: { params: userIdParamsSchema, response: { 200: z.object({ id: z.string() }) } } },
    async (request) => deleteUser(admin, staffActorOf(request), request.params.id),
  );

  app.get(
    '/users/export',
    { onRequest: guards.staff, config: { permission: 'users.export' }, attachValidation: true, schema: { querystring: exportUsersQuerySchema } },
    async (request, reply) => {
      refuseInvalidQuery(request);
      const now = admin.clock.now();
      // Issue 47: everyone's personal data leaves the portal: the audit log keeps who took it, with the list's filters.
      await recordStaffAction(admin.db, { actor: staffActorOf(request), action: 'users.exported', subjectId: null, details: { ...request.query }, at: now });
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="shapelab-users-${now.toISOString().slice(0, 10)}.csv"`)
        .header('cache-control', 'no-store')
        .send(usersCsv(admin, request.query));
    },
  );

  app.post(
    '/users/bulk',
    { onRequest: guards.staff, config: { permission: 'users.bulk' }, schema: { body: bulkUsersRequestSchema, response: { 200: bulkUsersResponseSchema } } },
    async (request) => bulkUsers(admin, staffActorOf(request), currentUser(request).roles, request.body),
  );
};
