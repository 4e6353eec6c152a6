import { useInvalidateAuthStore } from '@refinedev/core';
import { useCallback } from 'react';
import type { Me } from '../../contract/users.js';
import { authProvider } from '../../providers/index.js';

/**
 * After a change to the user (profile saved, a social account linked, a coupon redeemed) the answer that
 * carries the new user becomes the session's user, and Refine's identity queries read it again: no extra
 * `GET /users/me`.
 */
export function useRememberUser(): (user: Me) => Promise<void> {
  const invalidateAuth = useInvalidateAuthStore();
  return useCallback(
    async (user: Me) => {
      authProvider.rememberUser(user);
      await invalidateAuth();
    },
    [invalidateAuth],
  );
}

/**
 * After a change whose answer does not carry the user (issue 44: a second factor set up or removed), the
 * session's user is read again and Refine's identity queries follow it.
 */
export function useReloadUser(): () => Promise<Me | null> {
  const invalidateAuth = useInvalidateAuthStore();
  return useCallback(async () => {
    const user = await authProvider.reloadUser();
    await invalidateAuth();
    return user;
  }, [invalidateAuth]);
}

/**
 * Sets or changes the password through the auth provider, which keeps the session the server hands back
 * (a password change ends the other sessions and renews this one).
 */
export function useChangePassword(): (change: { password: string; oldPassword?: string }) => Promise<void> {
  return useCallback(async (change) => {
    await authProvider.changePassword(change);
  }, []);
}
