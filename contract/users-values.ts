/**
 * The plain values of contract/users.ts (which re-exports them) that the browser needs: zod-free, so a page
 * that needs the list's column names does not build the server's schemas on the way (tests/unit/browser-imports.test.ts).
 */

/** Columns the admin users list may be sorted by (spec section 7: `sortField`), one per grid column. */
export const USER_SORT_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'emailVerified',
  'googleConnected',
  'facebookConnected',
  'newsletter',
  'createdAt',
  'downloadedAt',
  'lastLaunchedAt',
  'isAdmin',
] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];
/** The largest page `GET /users` answers; a larger `take` is refused. */
export const MAX_PAGE_SIZE = 100;

/** How a user signs in (the grid's `signIn` filter): a password of their own, or a linked Google or Facebook account. */
export const SIGN_IN_METHODS = ['password', 'google', 'facebook'] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];
/**
 * The plan a user is on (the grid's `plan` filter and column), one per user: a paid subscription (active
 * or past due) before a licence (full or Lite, not returned) before a trial; 'free' without any.
 */
export const USER_PLANS = ['free', 'trial', 'subscriber', 'licence-owner'] as const;
export type UserPlan = (typeof USER_PLANS)[number];
