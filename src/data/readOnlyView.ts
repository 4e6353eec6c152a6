import { useGetIdentity } from '@refinedev/core';
import type { Me } from '../../contract/users.js';

/**
 * Issue 47: the signed-in frame shows a staff member's read-only view of a customer's account (`GET
 * /users/me`'s `readOnlyView`, with its end), or null. Every save and action of the account's pages is
 * disabled while it is one; the server refuses them anyway (403 READ_ONLY_VIEW).
 */
export function useReadOnlyView(): Me['readOnlyView'] {
  const { data } = useGetIdentity<Me>();
  return data?.readOnlyView ?? null;
}

/** Whether the account's saves and actions are disabled: a read-only view of it (issue 47). */
export function useReadOnly(): boolean {
  return useReadOnlyView() !== null;
}
