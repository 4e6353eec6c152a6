import { z } from 'zod';
import { sessionViewSchema } from './account.js';
import { seatsResponseSchema } from './licensing.js';
import { ROLES } from './roles.js';
import { subscriptionSchema } from './subscription.js';

export { isAdmin, ROLES, type Role } from './roles.js';
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
});
export type Me = z.infer<typeof meSchema>;

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
});
export type ListUsersQuery = z.infer<typeof listUsersQuerySchema>;

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
  action: z.enum(['roles.changed', 'user.deleted', 'account.deleted', 'purchase.duplicate_undone', 'purchase.refunded']),
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
  signInMethods: z.object({ password: z.boolean(), google: z.boolean(), facebook: z.boolean() }),
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
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;
