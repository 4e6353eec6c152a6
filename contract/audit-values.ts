/**
 * The plain values of the audit log (issue 47) the browser needs, zod-free (tests/unit/browser-imports.test.ts):
 * what a staff action is called, and the filters of `GET /admin/audit` as the page writes them into its address.
 */

/**
 * Every staff action the audit log records: changes to accounts made from the admin area (roles, deletions,
 * cancellations and refunds, resends, ended sessions, released devices, second-factor resets), views as the
 * customer, bulk actions and exports, and the admin area's other writes (jobs, coupons, releases, Lite keys).
 */
export const AUDIT_ACTIONS = [
  'roles.changed',
  'user.deleted',
  'users.bulk',
  'users.exported',
  'verification.resent',
  'sessions.ended',
  'device.released',
  'subscription.cancelled',
  'subscription.refunded',
  'two_factor.reset',
  'account.viewed',
  'audit.exported',
  'job.retried',
  'coupon.created',
  'release.created',
  'lite_keys.imported',
  'lite_keys.exported',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The query parameters that filter the log, in the order the page writes them into its address. */
export const AUDIT_FILTER_PARAMS = ['actor', 'action', 'subject', 'from', 'to'] as const;
export type AuditFilterParam = (typeof AUDIT_FILTER_PARAMS)[number];

/** A page of the log holds at most this many entries. */
export const MAX_AUDIT_PAGE = 100;
