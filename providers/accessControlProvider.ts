import type { AccessControlProvider } from '@refinedev/core';
import { isAdmin } from '../contract/roles.js';

export interface AccessRules {
  /** The current user's roles (the auth provider's permissions). */
  getRoles: () => Promise<readonly string[]>;
  /** Who may see a resource: any signed-in user, admins only, or undefined for a name nobody registered. */
  accessOf: (resource: string | undefined) => 'user' | 'admin' | undefined;
}

/**
 * Refine's access control (spec section 6): the route guard, the menus and the user/admin switch ask it.
 * It answers from the route table's resources and the user's roles; the server checks every call again.
 * A resource nobody registered is refused, so a typo hides a screen instead of opening it.
 */
export function createAccessControlProvider({ getRoles, accessOf }: AccessRules): AccessControlProvider {
  return {
    async can({ resource }) {
      const access = accessOf(resource);
      if (access === undefined) return { can: false, reason: 'NOT_FOUND' };
      if (access === 'user') return { can: true };
      return isAdmin(await getRoles()) ? { can: true } : { can: false, reason: 'FORBIDDEN' };
    },
    options: { buttons: { enableAccessControl: true, hideIfUnauthorized: true } },
  };
}
