/**
 * Roles without any schema library, so the browser bundle can ask role questions without loading zod.
 * A user is an admin if the roles list includes admin (spec section 6).
 */
export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export function isAdmin(roles: readonly string[] | undefined | null): boolean {
  return Array.isArray(roles) && roles.includes('admin');
}

/**
 * Staff: the people who work on the portal rather than buy from it (issue 44: they must have a second
 * factor when STAFF_TWO_FACTOR=required). Today that is the admin role; issue 47's support and analyst
 * roles join here.
 */
export function isStaff(roles: readonly string[] | undefined | null): boolean {
  return isAdmin(roles);
}
