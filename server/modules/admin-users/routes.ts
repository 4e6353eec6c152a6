import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { activityPageSchema, activityQuerySchema } from '../../../contract/activity.js';
import {
  adminUserDetailSchema,
  adminUserSchema,
  auditEntrySchema,
  listUsersQuerySchema,
  listUsersResponseSchema,
  updateRolesSchema,
  userIdParamsSchema,
} from '../../../contract/users.js';
import { currentUser, type Guards } from '../../plugins/authentication.js';
import { activityOf } from '../activity/index.js';
import type { Sessions } from '../auth/index.js';
import { adminUserOf, auditOf, changeRoles, deleteUser, listUsers, type AdminDeps } from './admin.js';
import { userDetail } from './detail.js';
import { refuseInvalidQuery } from './filters.js';

/** The admin users list with its role changes, deletions and audit trail, and one user's detail and timeline. */
export const adminUsersRoutes: FastifyPluginAsyncZod<{ admin: AdminDeps; guards: Guards; sessions: Sessions }> = async (app, { admin, guards, sessions }) => {
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

  app.get('/users/:id/audit', { onRequest: guards.admin, schema: { params: userIdParamsSchema, response: { 200: z.array(auditEntrySchema) } } }, async (request) =>
    auditOf(admin.db, request.params.id),
  );

  app.get('/users/:id', { onRequest: guards.admin, schema: { params: userIdParamsSchema, response: { 200: adminUserDetailSchema } } }, async (request) =>
    userDetail({ ...admin, sessions }, request.params.id),
  );

  app.get(
    '/users/:id/activity',
    { onRequest: guards.admin, schema: { params: userIdParamsSchema, querystring: activityQuerySchema, response: { 200: activityPageSchema } } },
    async (request) => {
      await adminUserOf(admin, request.params.id);
      return activityOf(admin.db, request.params.id, request.query);
    },
  );
};
