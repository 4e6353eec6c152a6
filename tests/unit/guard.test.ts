import { describe, expect, it } from 'vitest';
import {
  ADMIN_HOME_PATH,
  afterConfirmation,
  afterSocialLogin,
  arrivalNoticeOf,
  arrivalState,
  decideNavigation,
  STORED_CHECKOUT_KEY,
  reachableWhileEnrolling,
  SECURITY_PATH,
  type GuardInput,
  isAdminPath,
  safeReturnPath,
  takeSessionFromQuery,
} from '../../src/routing/guard.js';
import { landingOf } from '../../src/routing/menu.js';

/** A signed-out visitor on a public page; each test changes what its rule is about. */
function input(overrides: Partial<GuardInput>): GuardInput {
  const path = overrides.path ?? '/terms';
  return {
    path,
    returnTo: path,
    access: 'public',
    allowAll: false,
    authenticated: false,
    enrolmentRequired: false,
    profileFlag: false,
    previousPath: null,
    requestedReturn: null,
    ...overrides,
  };
}

const USER = { authenticated: true } as const;
const ADMIN = USER;

describe('decideNavigation: navigation rules (spec section 2)', () => {
  describe('not logged in and page needs login: go to login (admin-login for admin paths)', () => {
    it("a 'user' page sends to /login?to=<encoded path and query>", () => {
      expect(
        decideNavigation(
          input({ path: '/account/billing-info', returnTo: '/account/billing-info?tab=vat&x=1', access: 'user' }),
        ),
      ).toEqual({ type: 'redirect', to: '/login?to=%2Faccount%2Fbilling-info%3Ftab%3Dvat%26x%3D1' });
    });

    it("a staff page (a permission) under /admin sends to /admin/login?to=...", () => {
      expect(decideNavigation(input({ path: '/admin/users', returnTo: '/admin/users', access: 'users.read' }))).toEqual({
        type: 'redirect',
        to: '/admin/login?to=%2Fadmin%2Fusers',
      });
    });

    it("any page whose first segment is admin sends to admin login, even with access 'user'", () => {
      expect(decideNavigation(input({ path: '/admin/analytics', access: 'user' }))).toMatchObject({
        to: '/admin/login?to=%2Fadmin%2Fanalytics',
      });
    });

    it('a path that only contains "admin" later is not the admin area', () => {
      expect(decideNavigation(input({ path: '/account/admin', access: 'user' }))).toMatchObject({
        to: '/login?to=%2Faccount%2Fadmin',
      });
    });
  });

  describe('logged in and page is anonymous-only: stay where they were, or go back', () => {
    it('goes back to the previous path when it differs from the current path', () => {
      expect(
        decideNavigation(
          input({ ...USER, path: '/login', access: 'anonymous', previousPath: '/account/subscription', requestedReturn: '/x' }),
        ),
      ).toEqual({ type: 'redirect', to: '/account/subscription' });
    });

    it('without a different previous path, goes to the requested return (`to`)', () => {
      expect(
        decideNavigation(
          input({ ...USER, path: '/login', access: 'anonymous', previousPath: '/login', requestedReturn: '/account/billing-info' }),
        ),
      ).toEqual({ type: 'redirect', to: '/account/billing-info' });
      expect(
        decideNavigation(input({ ...USER, path: '/registration', access: 'anonymous', requestedReturn: '/perpetual' })),
      ).toEqual({ type: 'redirect', to: '/perpetual' });
    });

    it('a previous path that is the same page with a query never sends the user back to it', () => {
      expect(
        decideNavigation(
          input({ ...USER, path: '/login', access: 'anonymous', previousPath: '/login?to=%2Fperpetual', requestedReturn: '/perpetual' }),
        ),
      ).toEqual({ type: 'redirect', to: '/perpetual' });
    });

    it('an unsafe requested return is ignored in favour of root', () => {
      expect(
        decideNavigation(input({ ...USER, path: '/login', access: 'anonymous', requestedReturn: '//evil.com' })),
      ).toEqual({ type: 'redirect', to: '/' });
    });

    it('with neither, goes to root', () => {
      expect(decideNavigation(input({ ...USER, path: '/forgot-password', access: 'anonymous' }))).toEqual({
        type: 'redirect',
        to: '/',
      });
    });

    it('a signed-out visitor sees the anonymous page', () => {
      expect(decideNavigation(input({ path: '/login', access: 'anonymous' }))).toEqual({ type: 'render' });
    });
  });

  describe('signed in: the role is the access control provider\'s question (tests/unit/access.test.tsx)', () => {
    it("a signed-in user on a staff page passes the session rules", () => {
      expect(decideNavigation(input({ ...ADMIN, path: '/admin/users', access: 'users.read' }))).toEqual({ type: 'render' });
    });

    it("a logged-in user on a 'user' page sees it", () => {
      expect(decideNavigation(input({ ...USER, path: '/account/profile', access: 'user' }))).toEqual({ type: 'render' });
    });

    it("an admin on a 'user' page sees it", () => {
      expect(decideNavigation(input({ ...ADMIN, path: '/account/profile', access: 'user' }))).toEqual({ type: 'render' });
    });
  });

  it('a public page renders either way', () => {
    expect(decideNavigation(input({ path: '/terms', access: 'public' }))).toEqual({ type: 'render' });
    expect(decideNavigation(input({ ...USER, path: '/terms', access: 'public' }))).toEqual({ type: 'render' });
  });

  describe('allowAll: a flag from an earlier event redirects to profile unless the route allows all', () => {
    it('flag set and route not allowAll: redirect to /account/profile and clear the flag', () => {
      expect(
        decideNavigation(input({ ...USER, path: '/account/subscription', access: 'user', profileFlag: true })),
      ).toEqual({ type: 'redirect', to: '/account/profile', clearProfileFlag: true });
    });

    it('flag set and route allowAll: the normal rules apply', () => {
      expect(
        decideNavigation(input({ ...USER, path: '/terms', access: 'public', allowAll: true, profileFlag: true })),
      ).toEqual({ type: 'render' });
      expect(
        decideNavigation(input({ ...USER, path: '/login', access: 'anonymous', allowAll: true, profileFlag: true })),
      ).toEqual({ type: 'redirect', to: '/' });
    });

    it('flag not set: no profile redirect and no flag clearing', () => {
      const decision = decideNavigation(input({ ...USER, path: '/account/subscription', access: 'user' }));
      expect(decision).toEqual({ type: 'render' });
    });
  });
});

describe('afterSocialLogin: after Google or Facebook login (spec section 2)', () => {
  it('no last payment and no licences: sub-payment when a stored checkout exists', () => {
    expect(afterSocialLogin({ lastPayment: null, perpetualLicences: [], hasStoredCheckout: true })).toBe('/sub-payment');
  });

  it('no last payment and no licences: otherwise choose-plan', () => {
    expect(afterSocialLogin({ lastPayment: null, perpetualLicences: [], hasStoredCheckout: false })).toBe(
      '/account/subscription/choose-plan',
    );
    expect(afterSocialLogin({ lastPayment: undefined, perpetualLicences: [], hasStoredCheckout: false })).toBe(
      '/account/subscription/choose-plan',
    );
  });

  it('a last payment: profile', () => {
    expect(afterSocialLogin({ lastPayment: { id: 'p1' }, perpetualLicences: [], hasStoredCheckout: true })).toBe(
      '/account/profile',
    );
  });

  it('any perpetual licence: profile', () => {
    expect(afterSocialLogin({ lastPayment: null, perpetualLicences: [{ id: 'l1' }], hasStoredCheckout: true })).toBe(
      '/account/profile',
    );
  });
});

describe('safeReturnPath: only paths inside this app', () => {
  it.each([
    ['a protocol-relative URL', '//evil.com'],
    ['an absolute URL', 'https://x'],
    ['a backslash path', '\\x'],
    ['a slash-backslash path', '/\\evil.com'],
    ['a relative path', 'account/profile'],
    ['an empty string', ''],
    ['null', null],
    // Issue 17: `/login?to=/%09/evil.test` arrives decoded; a browser drops the tab and goes to //evil.test.
    ['an encoded tab', new URLSearchParams('to=/%09/evil.test').get('to')],
    ['an encoded newline', new URLSearchParams('to=/%0a/evil.test').get('to')],
    ['a NUL', '/account\u0000'],
    ['a space', '/ /evil.test'],
  ])('refuses %s', (_label, to) => {
    expect(safeReturnPath(to, '/fallback')).toBe('/fallback');
  });

  it('accepts an app path with its query', () => {
    expect(safeReturnPath('/account/billing-info?tab=vat', '/')).toBe('/account/billing-info?tab=vat');
    expect(safeReturnPath('/', '/fallback')).toBe('/');
  });
});

describe('takeSessionFromQuery: access-token and offline-token are taken and removed from the address', () => {
  it('returns both tokens and the search without them, other parameters kept', () => {
    expect(takeSessionFromQuery('?access-token=AAA&lang=de&offline-token=OOO&to=%2Fx')).toEqual({
      accessToken: 'AAA',
      offlineToken: 'OOO',
      viewToken: null,
      search: '?lang=de&to=%2Fx',
    });
  });

  it('returns an empty search when only the tokens were there', () => {
    expect(takeSessionFromQuery('?access-token=AAA&offline-token=OOO')).toEqual({
      accessToken: 'AAA',
      offlineToken: 'OOO',
      viewToken: null,
      search: '',
    });
  });

  it('blank or missing values are null and still removed', () => {
    expect(takeSessionFromQuery('?access-token=&offline-token=%20%20&a=1')).toEqual({
      accessToken: null,
      offlineToken: null,
      viewToken: null,
      search: '?a=1',
    });
    expect(takeSessionFromQuery('?access-token=AAA')).toEqual({ accessToken: 'AAA', offlineToken: null, viewToken: null, search: '' });
  });

  it('a search without tokens is unchanged', () => {
    expect(takeSessionFromQuery('')).toEqual({ accessToken: null, offlineToken: null, viewToken: null, search: '' });
    expect(takeSessionFromQuery('?discount=d1')).toEqual({ accessToken: null, offlineToken: null, viewToken: null, search: '?discount=d1' });
  });

  it("issue 47: a read-only view's token is taken and removed too", () => {
    expect(takeSessionFromQuery('?view-token=VVV&to=%2Fx')).toEqual({ accessToken: null, offlineToken: null, viewToken: 'VVV', search: '?to=%2Fx' });
  });
});

describe('isAdminPath: a path whose first segment is admin is the admin area', () => {
  it.each(['/admin', '/admin/', '/admin/users', 'admin/login', '/admin/analytics/steam'])('%s is admin', (path) => {
    expect(isAdminPath(path)).toBe(true);
  });

  it.each(['/', '', '/administrator', '/account/admin', '/login', '/admins/x'])('%s is not admin', (path) => {
    expect(isAdminPath(path)).toBe(false);
  });
});

describe('issue 44: staff without a second factor while one is required can only set one up', () => {
  const ENROLLING = { authenticated: true, enrolmentRequired: true } as const;

  it.each([
    ['/', 'user'],
    ['/account/profile', 'user'],
    ['/account/subscription', 'user'],
    ['/admin/users', 'users.read'],
    ['/admin/users/7b2e', 'users.read'],
    ['/checkout-new/subscription', 'user'],
  ] as const)('%s sends them to the security page', (path, access) => {
    expect(decideNavigation(input({ ...ENROLLING, path, returnTo: path, access }))).toEqual({ type: 'redirect', to: SECURITY_PATH });
  });

  it('the security page itself shows, where they set it up', () => {
    expect(decideNavigation(input({ ...ENROLLING, path: SECURITY_PATH, access: 'user' }))).toEqual({ type: 'render' });
    expect(reachableWhileEnrolling(SECURITY_PATH)).toBe(true);
    expect(reachableWhileEnrolling('/account/profile')).toBe(false);
  });

  it('comes before the profile flag, so they are not sent on twice', () => {
    expect(decideNavigation(input({ ...ENROLLING, path: '/account/billing-info', access: 'user', profileFlag: true }))).toEqual({ type: 'redirect', to: SECURITY_PATH });
  });

  it('public pages stay as they are (the terms, the not-found page)', () => {
    expect(decideNavigation(input({ ...ENROLLING, path: '/terms', access: 'public' }))).toEqual({ type: 'render' });
  });

  it('once a factor is set up, everything is reachable again, and staff continue where they land after signing in', () => {
    expect(decideNavigation(input({ ...USER, path: '/admin/users', access: 'users.read' }))).toEqual({ type: 'render' });
    // Issue 47: where they land is their role's first admin screen (src/routing/menu.ts, landingOf).
    expect(landingOf(['users.read'])).toBe(ADMIN_HOME_PATH);
    expect(landingOf(['analytics.read'])).toBe('/admin/analytics');
  });

  it('without a session the login rule applies as before', () => {
    expect(decideNavigation(input({ authenticated: false, enrolmentRequired: true, path: '/admin/users', access: 'users.read' }))).toMatchObject({ to: '/admin/login?to=%2Fadmin%2Fusers' });
  });
});

describe('after verifying an address (issue 48 item 5: by code and by link alike)', () => {
  const storage = (stored: string | null) => ({ getItem: (key: string) => (key === STORED_CHECKOUT_KEY ? stored : null) });

  it('continues to the checkout chosen first, or to choose-plan', () => {
    expect(afterConfirmation(storage('{"type":"subscription","priceId":null,"search":""}'))).toBe('/sub-payment');
    expect(afterConfirmation(storage(null))).toBe('/account/subscription/choose-plan');
  });

  it('says so on arrival: the navigation state carries the notice, and nothing else passes for one', () => {
    expect(arrivalNoticeOf(arrivalState('emailVerified'))).toBe('emailVerified');
    for (const state of [null, undefined, 'emailVerified', { notice: 'somethingElse' }, { registration: true }]) expect(arrivalNoticeOf(state)).toBeNull();
  });
});
