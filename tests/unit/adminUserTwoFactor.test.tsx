import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AdminUserDetail } from '../../contract/users.js';
import { loadLanguage } from '../../src/i18n.js';
import { requestOf, textKeyOf } from '../../src/pages/admin/user/actions.js';
import { ProfileSection } from '../../src/pages/admin/user/ProfileSection.js';
import type { StaffPowers } from '../../src/pages/admin/users/useStaffPowers.js';
import '../../src/pages/admin/user/texts.js';

/** Issue 44: support resets a user's second factor from the user page, after a confirmation. */
beforeAll(async () => {
  await loadLanguage('en');
});
afterEach(cleanup);

/** Every power (an admin), or only support's (issue 47). */
const ADMIN: StaffPowers = {
  roles: true,
  delete: true,
  bulk: true,
  export: true,
  audit: true,
  viewAs: true,
  resendVerification: true,
  endSessions: true,
  releaseDevices: true,
  resetTwoFactor: true,
  cancel: true,
  refund: true,
  invoice: true,
};
const SUPPORT: StaffPowers = { ...ADMIN, roles: false, delete: false, bulk: false, export: false, cancel: false, refund: false, invoice: false };

function detail(twoFactorEnabled: boolean, roles: AdminUserDetail['user']['roles'] = ['user']): AdminUserDetail {
  return {
    user: {
      id: '7b2e0000-0000-4000-8000-000000000001',
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      roles,
      emailVerified: true,
      googleConnected: false,
      facebookConnected: false,
      newsletter: false,
      createdAt: '2026-01-01T00:00:00.000Z',
      downloadedAt: null,
      lastLaunchedAt: null,
      isAdmin: false,
      plan: 'free',
      chargeback: false,
      phone: null,
      country: null,
      language: 'en',
      emailVerifiedAt: '2026-01-01T00:00:00.000Z',
      signupSource: 'registration',
    },
    signInMethods: { password: true, google: false, facebook: false, twoFactor: twoFactorEnabled },
    sessions: [],
    subscription: null,
    transactions: [],
    licences: [],
    devices: { seats: [], limit: 2 },
    coupons: [],
    accessPasses: [],
    liteKeys: [],
    chargebacks: [],
  };
}

describe("resetting a user's second factor", () => {
  it('is DELETE /users/{id}/two-factor, with its own texts', () => {
    expect(requestOf('7b2e', { kind: 'resetTwoFactor' })).toEqual({ url: '/users/7b2e/two-factor', method: 'delete', values: {} });
    expect(textKeyOf({ kind: 'resetTwoFactor' })).toBe('resetTwoFactor');
    // The other actions keep their POSTs.
    expect(requestOf('7b2e', { kind: 'endSessions', count: 1 }).method).toBe('post');
  });

  it('is offered, and said, only for a user who has a second factor', () => {
    const onAction = vi.fn();
    render(<ProfileSection detail={detail(true)} selfId="someone-else" onAction={onAction} allowed={ADMIN} />);
    expect(screen.getByText('On (an authenticator app or a passkey)')).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: 'Reset second factor' }));
    expect(onAction).toHaveBeenCalledExactlyOnceWith({ kind: 'resetTwoFactor' });
    cleanup();
    render(<ProfileSection detail={detail(false)} selfId="someone-else" onAction={onAction} allowed={ADMIN} />);
    expect(screen.getByText('Off')).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Reset second factor' })).toBeNull();
  });
});

describe('the user page follows what the staff member may do (issue 47)', () => {
  it("offers support the customer's view and the second factor's reset, but no role change", () => {
    const onAction = vi.fn();
    render(<ProfileSection detail={detail(true)} selfId="someone-else" onAction={onAction} allowed={SUPPORT} />);
    fireEvent.click(screen.getByRole('button', { name: 'View as this user' }));
    expect(onAction).toHaveBeenCalledExactlyOnceWith({ kind: 'viewAs' });
    expect(screen.getByRole('button', { name: 'Reset second factor' })).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Make admin' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Change staff roles' })).toBeNull();
    expect(requestOf('7b2e', { kind: 'viewAs' })).toEqual({ url: '/users/7b2e/view-as', method: 'post', values: {} });
  });

  it('marks a staff account, never offers to view it, and lets an admin change its roles', () => {
    const onAction = vi.fn();
    render(<ProfileSection detail={detail(false, ['support', 'user'])} selfId="someone-else" onAction={onAction} allowed={ADMIN} />);
    expect(screen.getByTestId('staff-account')).toBeDefined();
    expect(screen.queryByRole('button', { name: 'View as this user' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Make admin' }));
    // The admin role is added to the roles held, not put in their place.
    expect(onAction).toHaveBeenLastCalledWith({ kind: 'roles', roles: ['support', 'user', 'admin'] });
    fireEvent.click(screen.getByRole('button', { name: 'Change staff roles' }));
    expect(onAction).toHaveBeenLastCalledWith({ kind: 'setRoles', roles: ['user', 'support'] });
  });
});
