import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminUserSchema,
  auditEntrySchema,
  listUsersQuerySchema,
  listUsersResponseSchema,
  meSchema,
  updateRolesSchema,
  userIdParamsSchema,
} from '../../../contract/users.js';
import { currentUser, type Guards } from '../../plugins/authentication.js';
import { auditOf, changeRoles, deleteUser, listUsers, type AdminDeps } from './admin.js';
import { meOf } from './service.js';

/** The current user, and the admin users list with its role changes, deletions and audit trail. */
export const usersRoutes: FastifyPluginAsyncZod<{ admin: AdminDeps; guards: Guards }> = async (app, { admin, guards }) => {
  app.get('/users/me', { onRequest: guards.user, schema: { response: { 200: meSchema } } }, async (request) =>
    meOf(admin.db, admin.clock, currentUser(request)),
  );

  app.get('/users', { onRequest: guards.admin, schema: { querystring: listUsersQuerySchema, response: { 200: listUsersResponseSchema } } }, async (request) =>
    listUsers(admin, request.query),
  );

  app.patch(
    '/users/:id',
    { onRequest: guards.admin, schema: { params: userIdParamsSchema, body: updateRolesSchema, response: { 200: adminUserSchema } } },
    async (request) => changeRoles(admin, currentUser(request).id, request.params.id, request.body.roles),
  );

  app.delete('/users/:id', { onRequest: guards.admin, schema: { params: userIdParamsSchema, response: { 200: z.object({ id: z.string() }) } } }, async (request) =>
    deleteUser(admin, currentUser(request).id, request.params.id),
  );

  app.get('/users/:id/audit', { onRequest: guards.admin, schema: { params: userIdParamsSchema, response: { 200: z.array(auditEntrySchema) } } }, async (request) =>
    auditOf(admin.db, request.params.id),
  );
};
