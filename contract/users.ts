import { z } from 'zod';
import { sessionViewSchema } from './account.js';
import { seatsResponseSchema } from './licensing.js';
import { PERMISSIONS } from './permissions.js';
import { ROLES } from './roles.js';
import { subscriptionSchema } from './subscription.js';
import { MAX_PAGE_SIZE, SIGN_IN_METHODS, USER_PLANS, USER_SORT_FIELDS } from './users-values.js';

export { isAdmin, isStaff, ROLES, type Role } from './roles.js';
export const roleSchema = z.enum(ROLES);

export const meSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  roles: z.array(roleSchema),
  emailVerified: z.boolean(),
  subscriptionId: z.string().nullable(),
  eligibleForDiscountBasedOnPreviousVersion: z.boolean(),
  createdAt: z.string(),
  phone: z.string().nullable(),
  newsletter: z.boolean(),
  language: z.enum(['en', 'de']),
  /** False for accounts that sign in only through Google or Facebook. */
  hasPassword: z.boolean(),
  /** ISO 3166-1 alpha-2 country or region, or null. */
  country: z.string().nullable(),
  /** The coupon code entered at sign-up (redeemed then). */
  couponCode: z.string().nullable(),
  googleConnected: z.boolean(),
  facebookConnected: z.boolean(),
  /** Issue 44: the account has a second factor (an authenticator app or a passkey). */
  twoFactorEnabled: z.boolean(),
  /** Issue 44: a staff account without a second factor while STAFF_TWO_FACTOR=required: it must enrol before anything else. */
  twoFactorEnrolmentRequired: z.boolean(),
  /** Issue 47: what the roles allow in the admin area (contract/permissions.ts); none in a read-only view. */
  permissions: z.array(z.enum(PERMISSIONS)),
  /** Issue 47: this session is a staff member's read-only view of the account, ending at `expiresAt`; null for the owner's own. */
  readOnlyView: z.object({ expiresAt: z.string() }).nullable(),
});
export type Me = z.infer<typeof meSchema>;

export { MAX_PAGE_SIZE, SIGN_IN_METHODS, USER_PLANS, USER_SORT_FIELDS, type SignInMethod, type UserPlan, type UserSortField } from './users-values.js';

const yesNo = z.enum(['true', 'false']);

/**
 * The admin grid's filters (issue 21 item 2), each optional, all combined with AND and with `search`:
 * `verified`, `admin`, `newsletter` (true/false), `signIn` (password, google, facebook) and `plan`.
 * A value outside these is refused with 400 USER_FILTER_INVALID.
 */
export const userFiltersSchema = z.object({
  verified: yesNo.optional(),
  admin: yesNo.optional(),
  newsletter: yesNo.optional(),
  signIn: z.enum(SIGN_IN_METHODS).optional(),
  plan: z.enum(USER_PLANS).optional(),
});
export type UserFilters = z.infer<typeof userFiltersSchema>;
/** The query parameters of the filters, in the order the grid writes them into its address. */
export const USER_FILTER_PARAMS = Object.keys(userFiltersSchema.shape) as (keyof UserFilters)[];

/**
 * `GET /users` query. Sorting applies only when both sortField and sortDirection are given, paging only
 * when both skip and take are integers (spec section 7); other values are refused, never passed to SQL.
 * `search` matches the start of the email, first name or last name, ignoring case.
 */
export const listUsersQuerySchema = z.object({
  sortField: z.enum(USER_SORT_FIELDS).optional(),
  sortDirection: z.enum(['asc', 'desc', 'ASC', 'DESC']).optional(),
  skip: z.coerce.number().int().min(0).optional(),
  take: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
  search: z.string().trim().max(100).optional(),
  ...userFiltersSchema.shape,
});
export type ListUsersQuery = z.infer<typeof listUsersQuerySchema>;

/** `GET /users/export` query: the grid's search, filters and sort, without paging (every match is written). */
export const exportUsersQuerySchema = listUsersQuerySchema.omit({ skip: true, take: true });
export type ExportUsersQuery = z.infer<typeof exportUsersQuerySchema>;

/** The most users one bulk action names (a page of the grid holds at most MAX_PAGE_SIZE). */
export const MAX_BULK_USERS = 500;
export const BULK_USER_ACTIONS = ['delete', 'grant-admin', 'revoke-admin'] as const;
export type BulkUserAction = (typeof BULK_USER_ACTIONS)[number];
/** `POST /users/bulk` (admin): one action on the selected users. */
export const bulkUsersRequestSchema = z
  .object({
    action: z.enum(BULK_USER_ACTIONS),
    ids: z.array(z.uuid()).min(1).max(MAX_BULK_USERS),
  })
  .strict();
export type BulkUsersRequest = z.infer<typeof bulkUsersRequestSchema>;
/**
 * What a bulk action did: the users changed (or already as asked), and the ones left alone with the
 * reason, as the single-user action would have refused them (CANNOT_MODIFY_SELF, LAST_ADMIN,
 * USER_NOT_FOUND). The others are done even when some are skipped.
 */
export const bulkUsersResponseSchema = z.object({
  done: z.array(z.string()),
  skipped: z.array(z.object({ id: z.string(), messageKey: z.enum(['CANNOT_MODIFY_SELF', 'LAST_ADMIN', 'USER_NOT_FOUND']) })),
});
export type BulkUsersResponse = z.infer<typeof bulkUsersResponseSchema>;

/** A row of the admin users table (spec section 2: its columns). */
export const adminUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  roles: z.array(roleSchema),
  emailVerified: z.boolean(),
  googleConnected: z.boolean(),
  facebookConnected: z.boolean(),
  newsletter: z.boolean(),
  createdAt: z.string(),
  downloadedAt: z.string().nullable(),
  lastLaunchedAt: z.string().nullable(),
  isAdmin: z.boolean(),
  /** Issue 21: the plan filter's value for this user. */
  plan: z.enum(USER_PLANS),
  /** Issue 46 item 9: a bank took one of the user's payments back (a chargeback not reversed). */
  chargeback: z.boolean(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const listUsersResponseSchema = z.object({
  data: z.array(adminUserSchema),
  total: z.number().int(),
});
export type ListUsersResponse = z.infer<typeof listUsersResponseSchema>;

/** `PATCH /users/{id}` (admin; spec section 7: body roles). */
export const updateRolesSchema = z.object({ roles: z.array(roleSchema).min(1).max(ROLES.length) }).strict();
export const userIdParamsSchema = z.object({ id: z.uuid() });

/** An admin change as the audit log keeps it: who, what, when. */
export const auditEntrySchema = z.object({
  id: z.string(),
  actorId: z.string().nullable(),
  actorEmail: z.string().nullable(),
  action: z.enum(['roles.changed', 'user.deleted', 'account.deleted', 'purchase.duplicate_undone', 'purchase.refunded', 'two_factor.reset', 'account.viewed']),
  details: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/**
 * `GET /users/{id}` (admin; issue 21): one account as support needs it: the grid's row, then how the
 * person signs in, their sessions, subscription, payments, licences, devices, coupons and Lite keys.
 * Read from the portal's own tables (never from Paddle), so the page answers when Paddle does not.
 */
export const adminUserDetailSchema = z.object({
  user: adminUserSchema.extend({
    phone: z.string().nullable(),
    country: z.string().nullable(),
    language: z.enum(['en', 'de']),
    emailVerifiedAt: z.string().nullable(),
    /** Where the account came from: 'registration', 'siggraph2023', 'google', 'facebook', 'seed', or null. */
    signupSource: z.string().nullable(),
  }),
  /** `twoFactor` (issue 44): an authenticator app or a passkey; support can reset it (`DELETE /users/{id}/two-factor`). */
  signInMethods: z.object({ password: z.boolean(), google: z.boolean(), facebook: z.boolean(), twoFactor: z.boolean() }),
  sessions: z.array(sessionViewSchema),
  subscription: subscriptionSchema.nullable(),
  transactions: z.array(
    z.object({
      id: z.string(),
      status: z.string(),
      origin: z.string().nullable(),
      subscriptionId: z.string().nullable(),
      billedAt: z.string().nullable(),
      total: z.object({ amount: z.number().int(), currencyCode: z.string() }),
      /** The portal's refund of it: 'pending', 'requested', 'approved' or 'rejected'; null when none. */
      refundStatus: z.string().nullable(),
    }),
  ),
  licences: z.array(
    z.object({
      id: z.string(),
      source: z.string(),
      edition: z.string(),
      release: z.string().nullable(),
      updatesUntil: z.string().nullable(),
      grantedAt: z.string(),
      revokedAt: z.string().nullable(),
    }),
  ),
  devices: seatsResponseSchema,
  coupons: z.array(z.object({ code: z.string(), redeemedAt: z.string() })),
  accessPasses: z.array(z.object({ startsAt: z.string(), endsAt: z.string(), code: z.string() })),
  liteKeys: z.array(z.object({ key: z.string(), channel: z.string(), claimedAt: z.string().nullable() })),
  /** Issue 46 item 9: the payments the user's bank took back, newest first; `reversedAt` when the bank gave one back. */
  chargebacks: z.array(
    z.object({
      transactionId: z.string(),
      subscriptionId: z.string().nullable(),
      amount: z.object({ amount: z.number().int(), currencyCode: z.string() }),
      createdAt: z.string(),
      reversedAt: z.string().nullable(),
    }),
  ),
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;
