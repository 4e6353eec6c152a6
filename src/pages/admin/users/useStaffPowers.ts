import { useCan } from '@refinedev/core';
import { useMemo } from 'react';

/** What the signed-in staff member may do to accounts from the users list and a user's page (issue 47). */
export interface StaffPowers {
  roles: boolean;
  delete: boolean;
  bulk: boolean;
  export: boolean;
  audit: boolean;
  viewAs: boolean;
  resendVerification: boolean;
  endSessions: boolean;
  releaseDevices: boolean;
  resetTwoFactor: boolean;
  cancel: boolean;
  refund: boolean;
  invoice: boolean;
}

/**
 * Issue 47: each control asks Refine's access control provider, which answers from the permissions the
 * server gave (`<resource>.<action>`, providers/accessControlProvider.ts); a control the server would refuse is
 * not shown. Until the answers are in, nothing is offered. The same object while the answers stay, so the
 * list's rows (memo) are not drawn again.
 */
export function useStaffPowers(): StaffPowers {
  const can = (answer: { data?: { can: boolean } }) => answer.data?.can === true;
  const powers: StaffPowers = {
    roles: can(useCan({ resource: 'users', action: 'roles' })),
    delete: can(useCan({ resource: 'users', action: 'delete' })),
    bulk: can(useCan({ resource: 'users', action: 'bulk' })),
    export: can(useCan({ resource: 'users', action: 'export' })),
    audit: can(useCan({ resource: 'users', action: 'audit' })),
    viewAs: can(useCan({ resource: 'users', action: 'viewAs' })),
    resendVerification: can(useCan({ resource: 'users', action: 'resendVerification' })),
    endSessions: can(useCan({ resource: 'users', action: 'endSessions' })),
    releaseDevices: can(useCan({ resource: 'users', action: 'releaseDevices' })),
    resetTwoFactor: can(useCan({ resource: 'users', action: 'resetTwoFactor' })),
    cancel: can(useCan({ resource: 'billing', action: 'cancel' })),
    refund: can(useCan({ resource: 'billing', action: 'refund' })),
    invoice: can(useCan({ resource: 'billing', action: 'read' })),
  };
  const key = JSON.stringify(powers);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the answers are the key: a new object only when one changes
  return useMemo(() => powers, [key]);
}
