/**
 * Roles without any schema library, so the browser bundle can ask role questions without loading zod.
 * A user is an admin if the roles list includes admin (spec section 6).
 */
export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export function isAdmin(roles: readonly string[] | undefined | null): boolean {
  return Array.isArray(roles) && roles.includes('admin');
}
