import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { activityPageSchema, activityQuerySchema } from '../../../contract/activity.js';
import { adminUserDetailSchema, auditEntrySchema, userIdParamsSchema } from '../../../contract/users.js';
import type { Guards } from '../../plugins/authentication.js';
import type { Sessions } from '../auth/index.js';
import { auditOf, timelineOf, type AdminDeps } from './admin.js';
import { userDetail } from './detail.js';

/** One account as support sees it (issue 21): the admin user page, its history of admin changes, its timeline. */
export const userPageRoutes: FastifyPluginAsyncZod<{ admin: AdminDeps; guards: Guards; sessions: Sessions }> = async (app, { admin, guards, sessions }) => {
  app.get(
    '/users/:id/audit',
    { onRequest: guards.staff, config: { permission: 'users.audit' }, schema: { params: userIdParamsSchema, response: { 200: z.array(auditEntrySchema) } } },
    async (request) => auditOf(admin.db, request.params.id),
  );

  app.get(
    '/users/:id',
    { onRequest: guards.staff, config: { permission: 'users.read' }, schema: { params: userIdParamsSchema, response: { 200: adminUserDetailSchema } } },
    async (request) => userDetail({ ...admin, sessions }, request.params.id),
  );

  app.get(
    '/users/:id/activity',
    { onRequest: guards.staff, config: { permission: 'users.read' }, schema: { params: userIdParamsSchema, querystring: activityQuerySchema, response: { 200: activityPageSchema } } },
    async (request) => timelineOf(admin, request.params.id, request.query),
  );
};
