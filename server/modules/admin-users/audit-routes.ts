import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditFiltersSchema, auditPageSchema, auditQuerySchema } from '../../../contract/audit.js';
import { staffActorOf, type Guards } from '../../plugins/authentication.js';
import type { Clock } from '../../clock.js';
import { recordStaffAction } from '../activity/index.js';
import { auditCsv, auditLog, type AuditDeps } from './audit.js';

/**
 * The audit log (issue 47): who of the staff did what to whom, and when, across every account, for admins and
 * their auditors. Read only: no route changes or deletes an entry (the table refuses it too). The export is
 * itself an entry.
 */
export const auditRoutes: FastifyPluginAsyncZod<{ deps: AuditDeps & { clock: Clock }; guards: Guards }> = async (app, { deps, guards }) => {
  app.get(
    '/admin/audit',
    { onRequest: guards.staff, config: { permission: 'audit.read' }, schema: { querystring: auditQuerySchema, response: { 200: auditPageSchema } } },
    async (request) => auditLog(deps, request.query),
  );

  app.get(
    '/admin/audit/export',
    { onRequest: guards.staff, config: { permission: 'audit.read' }, schema: { querystring: auditFiltersSchema } },
    async (request, reply) => {
      const now = deps.clock.now();
      await recordStaffAction(deps.db, { actor: staffActorOf(request), action: 'audit.exported', subjectId: null, details: { ...request.query }, at: now });
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="shapelab-audit-${now.toISOString().slice(0, 10)}.csv"`)
        .header('cache-control', 'no-store')
        .send(await auditCsv(deps, request.query));
    },
  );
};
