import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AdminUserDetail } from '../../contract/users.js';
import { loadLanguage } from '../../src/i18n.js';
import { requestOf, textKeyOf } from '../../src/pages/admin/user/actions.js';
import { ProfileSection } from '../../src/pages/admin/user/ProfileSection.js';
import '../../src/pages/admin/user/texts.js';

/** Issue 44: support resets a user's second factor from the user page, after a confirmation. */
beforeAll(async () => {
  await loadLanguage('en');
});
afterEach(cleanup);

function detail(twoFactorEnabled: boolean): AdminUserDetail {
  return {
    user: {
      id: '7b2e0000-0000-4000-8000-000000000001',
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      roles: ['user'],
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
    render(<ProfileSection detail={detail(true)} selfId="someone-else" onAction={onAction} />);
    expect(screen.getByText('On (an authenticator app or a passkey)')).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: 'Reset second factor' }));
    expect(onAction).toHaveBeenCalledExactlyOnceWith({ kind: 'resetTwoFactor' });
    cleanup();
    render(<ProfileSection detail={detail(false)} selfId="someone-else" onAction={onAction} />);
    expect(screen.getByText('Off')).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Reset second factor' })).toBeNull();
  });
});
