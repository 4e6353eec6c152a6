import type { Role } from '../../../../contract/users.js';

/**
 * What support can do for a user from their page (issue 21), each asked first in a confirmation that
 * says what follows. The server applies the customer's own rules and answers a messageKey when it refuses.
 */
export type UserAction =
  | { kind: 'roles'; roles: Role[] }
  | { kind: 'endSessions'; count: number }
  | { kind: 'resendVerification' }
  // Issue 44: the user lost their second factor; support removes it after making sure it is them.
  | { kind: 'resetTwoFactor' }
  | { kind: 'cancel'; refund: false; endsAt: string | null }
  | { kind: 'cancel'; refund: true; amount: string }
  | { kind: 'release'; deviceId: string; name: string; computerId: string }
  // Issue 47: the staff roles, set in their own dialog; a read-only view of the account in a tab of its own.
  | { kind: 'setRoles'; roles: Role[] }
  | { kind: 'viewAs' };

/** The API call of each action (a path under /api, as the data provider takes it). */
export function requestOf(userId: string, action: Exclude<UserAction, { kind: 'roles' | 'setRoles' }>): { url: string; method: 'post' | 'delete'; values: object } {
  const user = `/users/${encodeURIComponent(userId)}`;
  switch (action.kind) {
    case 'endSessions':
      return { url: `${user}/sessions/end`, method: 'post', values: {} };
    case 'resendVerification':
      return { url: `${user}/verification/resend`, method: 'post', values: {} };
    case 'resetTwoFactor':
      return { url: `${user}/two-factor`, method: 'delete', values: {} };
    case 'cancel':
      return { url: `${user}/subscription/cancel`, method: 'post', values: { refund: action.refund } };
    case 'release':
      return { url: `${user}/devices/${encodeURIComponent(action.deviceId)}/release`, method: 'post', values: {} };
    case 'viewAs':
      return { url: `${user}/view-as`, method: 'post', values: {} };
  }
}

/** The locale key of an action's texts under `adminUser:actions`. */
export function textKeyOf(action: UserAction): string {
  if (action.kind === 'cancel') return action.refund ? 'refund' : 'cancel';
  if (action.kind === 'roles') return action.roles.includes('admin') ? 'promote' : 'demote';
  if (action.kind === 'setRoles') return 'roles';
  return action.kind;
}
