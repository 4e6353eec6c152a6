import { z } from 'zod';
import { STAFF_ROLES } from './roles.js';
import { AUDIT_ACTIONS, MAX_AUDIT_PAGE } from './audit-values.js';

export { AUDIT_ACTIONS, AUDIT_FILTER_PARAMS, MAX_AUDIT_PAGE, type AuditAction, type AuditFilterParam } from './audit-values.js';

/** A day (`2026-11-29`, all of it) or an instant with its offset (`2026-11-29T10:00:00Z`). */
const dayOrInstant = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

/**
 * `GET /admin/audit` and `GET /admin/audit/export` (issue 47): the audit log newest first, filtered by who
 * acted (`actor`: their email or id), what they did (`action`), whom it was about (`subject`: the account's
 * email or id; a deleted account only by id), and when (`from`, `to`: days or instants; a day as `to` counts
 * to its end). Every filter is optional and they combine with AND.
 */
export const auditFiltersSchema = z
  .object({
    actor: z.string().trim().min(1).max(254).optional(),
    action: z.enum(AUDIT_ACTIONS).optional(),
    subject: z.string().trim().min(1).max(254).optional(),
    from: dayOrInstant.optional(),
    to: dayOrInstant.optional(),
  })
  .strict();
export type AuditFilters = z.infer<typeof auditFiltersSchema>;

export const auditQuerySchema = auditFiltersSchema.extend({
  skip: z.coerce.number().int().min(0).max(1_000_000).default(0),
  take: z.coerce.number().int().min(1).max(MAX_AUDIT_PAGE).default(25),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

/** One staff action: who (as they were then), what, about whom, when, and what it changed. */
export const auditLogEntrySchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  actorId: z.string(),
  actorEmail: z.string(),
  actorRole: z.enum(STAFF_ROLES),
  action: z.enum(AUDIT_ACTIONS),
  /** Null for an action on no one account (an export, a bulk action's summary, a job). */
  subjectId: z.string().nullable(),
  /** The subject's email now: null once that account is gone (the log keeps no deleted person's data). */
  subjectEmail: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});
export type AuditLogEntry = z.infer<typeof auditLogEntrySchema>;

export const auditPageSchema = z.object({ data: z.array(auditLogEntrySchema), total: z.number().int() });
export type AuditPage = z.infer<typeof auditPageSchema>;
