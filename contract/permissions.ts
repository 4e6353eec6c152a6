import { ROLES, type Role } from './roles.js';

/**
 * Issue 47: what staff may do, as action names the server checks on every admin route (each route names its
 * permission in its config, server/plugins/authentication.ts) and the web app asks Refine's access control
 * provider about (providers/accessControlProvider.ts), from the list `GET /users/me` carries. Zod-free, like
 * ./roles.ts, so the browser asks without the schema library. A role's powers are this table and nothing
 * else: a new admin route names one of these, or the app refuses to start.
 */
export const PERMISSIONS = [
  /** The users list, search and one account's page with its timeline. */
  'users.read',
  /** Change anyone's roles (the last-admin and not-yourself rules stay). */
  'users.roles',
  'users.delete',
  /** The list's bulk actions (each also needs the action's own permission). */
  'users.bulk',
  /** The users list as CSV. */
  'users.export',
  'users.resendVerification',
  /** End every session of a customer. */
  'users.endSessions',
  'users.releaseDevices',
  /** Remove a customer's second factor (who lost phone and recovery codes). */
  'users.resetTwoFactor',
  /** A read-only session of at most 15 minutes that sees the customer's pages as they do. */
  'users.viewAs',
  /** The audit trail of one account (the history dialog). */
  'users.audit',
  /** The audit log of every staff action across accounts, and its CSV. */
  'audit.read',
  /** A payment's invoice. */
  'billing.read',
  /** Cancel a customer's subscription with its refund. */
  'billing.refund',
  /** Cancel a customer's subscription at the end of its period. */
  'billing.cancel',
  /** The dashboard, cohorts and store channels. */
  'analytics.read',
  'jobs.read',
  'jobs.retry',
  /** The Lite keys: the list, its CSV and the import. */
  'liteKeys.manage',
  'coupons.read',
  'coupons.create',
  'releases.create',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * Each role's permissions (issue 47). `support` answers customers: it finds and opens accounts, resends the
 * verification mail, ends sessions, releases devices, resets a second factor, views as the customer and reads
 * one account's audit trail; it never touches money, roles, deletions, bulk actions, exports or the figures.
 * `analyst` reads the figures (dashboard, cohorts, store channels) and nothing of anyone's account. `admin`
 * may do everything, as before. `user` is everyone's role and gives none of these.
 */
export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  user: [],
  admin: PERMISSIONS,
  support: [
    'users.read',
    'users.resendVerification',
    'users.endSessions',
    'users.releaseDevices',
    'users.resetTwoFactor',
    'users.viewAs',
    'users.audit',
  ],
  analyst: ['analytics.read'],
};

/** Everything the roles together may do, in the table's order. */
export function permissionsOf(roles: readonly string[] | undefined | null): Permission[] {
  if (!Array.isArray(roles)) return [];
  const known = ROLES.filter((role) => roles.includes(role));
  return PERMISSIONS.filter((permission) => known.some((role) => ROLE_PERMISSIONS[role].includes(permission)));
}

/** Whether the roles give `permission`. */
export function hasPermission(roles: readonly string[] | undefined | null, permission: Permission): boolean {
  return Array.isArray(roles) && ROLES.some((role) => roles.includes(role) && ROLE_PERMISSIONS[role].includes(permission));
}

export function isPermission(value: unknown): value is Permission {
  return typeof value === 'string' && (PERMISSIONS as readonly string[]).includes(value);
}

/** The roles that have `permission` (the API reference names them beside each admin operation). */
export function rolesWith(permission: Permission): Role[] {
  return ROLES.filter((role) => ROLE_PERMISSIONS[role].includes(permission));
}
