import type { AccessControlProvider } from '@refinedev/core';
import { isAdmin } from '../contract/roles.js';

/** Resources whose screens are for admins only (spec section 6). */
export const ADMIN_RESOURCES = new Set([
  'users',
  'analytics',
  'cohorts',
  'lite-keys',
  'analytics-steam',
  'analytics-subscription',
  'analytics-metapc',
  'analytics-perpetual-2024',
  'analytics-viveport',
  'analytics-android',
]);

/** Answers role questions from the current user's roles; the server checks again on every call. */
export function createAccessControlProvider(getRoles: () => Promise<readonly string[]>): AccessControlProvider {
  return {
    async can({ resource }) {
      if (!resource || !ADMIN_RESOURCES.has(resource)) return { can: true };
      const admin = isAdmin(await getRoles());
      return admin ? { can: true } : { can: false, reason: 'FORBIDDEN' };
    },
  };
}
