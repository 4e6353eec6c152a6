import type { Permission } from '../../contract/permissions.js';
import { TAB_SESSION_KEYS } from '../../providers/session.js';
import { paths } from './paths.js';

/**
 * The navigation rules of spec section 2 in one place, as pure functions the route guard applies on
 * every navigation. Paths here are app paths without the locale prefix.
 */
/** Who may open a screen: anyone, visitors only, any signed-in user, or staff with a permission (issue 47). */
export type Access = 'public' | 'anonymous' | 'user' | Permission;

// The screens these rules send people to, by their part in the rules (addresses from ./paths.ts).
export const PROFILE_PATH = paths.profile;
export const CHOOSE_PLAN_PATH = paths.choosePlan;
export const SUB_PAYMENT_PATH = paths.subPayment;
export const LOGIN_PATH = paths.login;
export const ADMIN_LOGIN_PATH = paths.adminLogin;
/** The admin area's first screen (the users list); each staff role lands on the first one it may see (./menu.ts, landingOf). */
export const ADMIN_HOME_PATH = paths.users;
export const SECURITY_PATH = paths.security;

/** A path whose first segment is `admin` belongs to the admin area. */
export function isAdminPath(path: string): boolean {
  return path.split('/').filter(Boolean)[0] === 'admin';
}

export interface GuardInput {
  path: string;
  /** The path and query to come back to after signing in. */
  returnTo: string;
  access: Access;
  allowAll: boolean;
  authenticated: boolean;
  /** Issue 44: the signed-in user is staff without a second factor while one is required (Me.twoFactorEnrolmentRequired). */
  enrolmentRequired: boolean;
  /** The flag an earlier event set (spec section 2: allowAll). */
  profileFlag: boolean;
  /** Where the user was before this navigation, if inside the app. */
  previousPath: string | null;
  /** The `to` query parameter of a sign-in page, if any. */
  requestedReturn: string | null;
}

export type GuardDecision =
  | { type: 'render' }
  | { type: 'redirect'; to: string; clearProfileFlag?: boolean };

/**
 * Who is signed in and where they may go next. Whether a signed-in user may see a screen's resource (a staff
 * permission) is the access control provider's answer, asked by the signed-in frame (AccessGate).
 */
export function decideNavigation(input: GuardInput): GuardDecision {
  const needsLogin = input.access !== 'public' && input.access !== 'anonymous';
  if (needsLogin && input.authenticated && input.enrolmentRequired && !reachableWhileEnrolling(input.path)) {
    return { type: 'redirect', to: SECURITY_PATH };
  }
  if (input.profileFlag && !input.allowAll) {
    return { type: 'redirect', to: PROFILE_PATH, clearProfileFlag: true };
  }
  if (needsLogin && !input.authenticated) {
    return { type: 'redirect', to: signInAddressFor(input.path, input.returnTo) };
  }
  if (input.access === 'anonymous' && input.authenticated) {
    // Stay where they were (go back), or continue to where sign-in was asked for, or start at root.
    const previous = input.previousPath?.split('?')[0];
    const back = input.previousPath && previous !== input.path ? input.previousPath : null;
    return { type: 'redirect', to: back ?? safeReturnPath(input.requestedReturn, paths.home) };
  }
  return { type: 'render' };
}

/**
 * Where someone signs in to see `path` (spec section 2: login, the admin login for admin paths), coming back
 * to `returnTo` afterwards: for a screen that needs a session there is none of, and for a session that ended
 * under the person's hands (the server answered 401, providers/authProvider.ts, onError).
 */
export function signInAddressFor(path: string, returnTo: string): string {
  const login = isAdminPath(path) ? ADMIN_LOGIN_PATH : LOGIN_PATH;
  return `${login}?to=${encodeURIComponent(returnTo)}`;
}

/**
 * Issue 44: staff without a second factor while STAFF_TWO_FACTOR=required can do nothing but set one up. Of
 * the signed-in screens only the security page, where they do, is theirs (the route guard sends every other
 * one there, and the menus offer no other); public pages stay as they are.
 */
export function reachableWhileEnrolling(path: string): boolean {
  return path === SECURITY_PATH;
}


/**
 * After Google or Facebook sign-in (spec section 2): someone who has never paid and owns no perpetual
 * licence continues to the stored checkout, or chooses a plan; everyone else goes to the profile.
 */
export function afterSocialLogin(input: {
  lastPayment: unknown;
  perpetualLicences: readonly unknown[];
  hasStoredCheckout: boolean;
}): string {
  if (input.lastPayment == null && input.perpetualLicences.length === 0) {
    return input.hasStoredCheckout ? SUB_PAYMENT_PATH : CHOOSE_PLAN_PATH;
  }
  return PROFILE_PATH;
}

/**
 * `returnTo` from the login page's `to` query, accepted only for paths inside this app. Whitespace and
 * control characters are refused too: browsers drop a tab or newline from a URL, so `/%09/evil.test`
 * would become `//evil.test`, another site (issue 17).
 */
export function safeReturnPath(to: string | null, fallback: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
  if (!to || !to.startsWith('/') || to.startsWith('//') || to.includes('\\') || /[\s\u0000-\u001f\u007f]/.test(to)) return fallback;
  return to;
}

/**
 * The address's session parameters (spec section 2), and (issue 47) `view-token`: a staff member's read-only
 * view of a customer's account, opened in a tab of its own.
 */
export const SESSION_QUERY_KEYS = { access: 'access-token', offline: 'offline-token', view: 'view-token' } as const;

/**
 * Query parameters `access-token` and `offline-token` are taken as the session tokens and removed from
 * the address (spec section 2). Returns the tokens found and the search string without them.
 */
export function takeSessionFromQuery(search: string): {
  accessToken: string | null;
  offlineToken: string | null;
  viewToken: string | null;
  search: string;
} {
  const params = new URLSearchParams(search);
  const accessToken = params.get(SESSION_QUERY_KEYS.access);
  const offlineToken = params.get(SESSION_QUERY_KEYS.offline);
  const viewToken = params.get(SESSION_QUERY_KEYS.view);
  for (const key of Object.values(SESSION_QUERY_KEYS)) params.delete(key);
  const rest = params.toString();
  return {
    accessToken: accessToken?.trim() ? accessToken : null,
    offlineToken: offlineToken?.trim() ? offlineToken : null,
    viewToken: viewToken?.trim() ? viewToken : null,
    search: rest ? `?${rest}` : '',
  };
}

// The tab keeps these for its session only: they go when it ends (providers/session.ts, TAB_SESSION_KEYS).
export const PROFILE_FLAG_KEY = TAB_SESSION_KEYS.profileFlag;
/** The checkout a visitor chose before signing up (written by the checkout pages). */
export const STORED_CHECKOUT_KEY = TAB_SESSION_KEYS.storedCheckout;

/**
 * After confirming a new account, by its code or by its link (issue 48 item 5: both end here): on to the
 * stored checkout (sub-payment), or choose a plan (spec section 2). The navigation carries the arrival
 * notice `emailVerified` (arrivalState).
 */
export function afterConfirmation(storage: Pick<Storage, 'getItem'>): string {
  return storage.getItem(STORED_CHECKOUT_KEY) ? SUB_PAYMENT_PATH : CHOOSE_PLAN_PATH;
}

/**
 * What the screen a navigation leads to says on arrival, above itself (the signed-in frame shows it,
 * src/components/layout/ArrivalNotice.tsx; its text is `notifications.<notice>`): the navigation's state.
 */
export type ArrivalNotice = 'emailVerified';
const ARRIVAL_NOTICES: readonly ArrivalNotice[] = ['emailVerified'];

/** The navigation state that carries a notice (`navigate(to, { state: arrivalState('emailVerified') })`). */
export function arrivalState(notice: ArrivalNotice): { notice: ArrivalNotice } {
  return { notice };
}

/** The notice a navigation's state carries, if it is one (a state is whatever the history holds). */
export function arrivalNoticeOf(state: unknown): ArrivalNotice | null {
  if (typeof state !== 'object' || state === null || !('notice' in state)) return null;
  return ARRIVAL_NOTICES.find((notice) => notice === state.notice) ?? null;
}
export const HUMBLE_BUNDLE_KEY = TAB_SESSION_KEYS.humbleBundle;
