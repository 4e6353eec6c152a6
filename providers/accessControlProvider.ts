import type { AccessControlProvider } from '@refinedev/core';
import { isPermission, type Permission } from '../contract/permissions.js';

export interface AccessRules {
  /** What the current user may do in the admin area: `GET /users/me`'s `permissions` (issue 47). */
  getPermissions: () => Promise<readonly string[]>;
  /** Who may see a resource: any signed-in user, staff with a permission, or undefined for a name nobody registered. */
  accessOf: (resource: string | undefined) => 'user' | Permission | undefined;
}

/** Actions that read what a resource's screens show: they need what the screen needs. */
const READS = new Set(['list', 'show']);

/**
 * Refine's access control (spec section 6, issue 47): the route guard, the menus, the user/admin switch and
 * every staff button, row action and bulk action ask it. It answers from the permissions the server says the
 * user has (contract/permissions.ts): a screen (`list`, `show`) by the access its resource needs in the route
 * table, and any other action by the permission named `<resource>.<action>` (`users.delete`, `billing.refund`).
 * The server checks every call again; this only hides what it would refuse. A resource or an action nobody
 * registered is refused, so a typo hides a control instead of showing it.
 */
export function createAccessControlProvider({ getPermissions, accessOf }: AccessRules): AccessControlProvider {
  return {
    async can({ resource, action }) {
      const needed = READS.has(action) ? accessOf(resource) : `${resource ?? ''}.${action}`;
      if (needed === undefined || (needed !== 'user' && !isPermission(needed))) return { can: false, reason: 'NOT_FOUND' };
      if (needed === 'user') return { can: true };
      return (await getPermissions()).includes(needed) ? { can: true } : { can: false, reason: 'FORBIDDEN' };
    },
    options: { buttons: { enableAccessControl: true, hideIfUnauthorized: true } },
  };
}
