/**
 * Roles without any schema library, so the browser bundle can ask role questions without loading zod.
 * A user is an admin if the roles list includes admin (spec section 6). Issue 47: beside `admin`, two staff
 * roles of narrower powers, `support` (customers' accounts, without money, roles or deletions) and `analyst`
 * (the usage figures only); what each may do is ./permissions.ts's table, which the server checks.
 */
export const ROLES = ['user', 'admin', 'support', 'analyst'] as const;
export type Role = (typeof ROLES)[number];

/** The roles that make an account staff: the people who work on the portal rather than buy from it. */
export const STAFF_ROLES = ['admin', 'support', 'analyst'] as const satisfies readonly Role[];
export type StaffRole = (typeof STAFF_ROLES)[number];

export function isAdmin(roles: readonly string[] | undefined | null): boolean {
  return Array.isArray(roles) && roles.includes('admin');
}

/**
 * Staff (issue 47: any of admin, support and analyst). They sign in at /admin/login, must have a second factor
 * when STAFF_TWO_FACTOR=required (issue 44), and are never viewed "as the customer" (their pages hold others'
 * data).
 */
export function isStaff(roles: readonly string[] | undefined | null): boolean {
  return Array.isArray(roles) && roles.some((role) => (STAFF_ROLES as readonly string[]).includes(role));
}

/** The staff role a person is named by to a customer and in the audit log: their widest one, or null. */
export function staffRoleOf(roles: readonly string[] | undefined | null): StaffRole | null {
  return STAFF_ROLES.find((role) => Array.isArray(roles) && roles.includes(role)) ?? null;
}
