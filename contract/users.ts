import { z } from 'zod';
import { ROLES } from './roles.js';

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
  /** A coupon code kept until the coupons module redeems it (issue "Licences, devices, coupons"). */
  couponCode: z.string().nullable(),
  googleConnected: z.boolean(),
  facebookConnected: z.boolean(),
});
export type Me = z.infer<typeof meSchema>;

/** Columns the admin users list may be sorted by (spec section 7: `sortField`). */
export const USER_SORT_FIELDS = ['firstName', 'lastName', 'email', 'createdAt'] as const;
export const MAX_PAGE_SIZE = 100;

/**
 * `GET /users` query. Sorting applies only when both sortField and sortDirection are given, paging only
 * when both skip and take are integers (spec section 7); other values are refused, never passed to SQL.
 */
export const listUsersQuerySchema = z.object({
  sortField: z.enum(USER_SORT_FIELDS).optional(),
  sortDirection: z.enum(['asc', 'desc', 'ASC', 'DESC']).optional(),
  skip: z.coerce.number().int().min(0).optional(),
  take: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
});
export type ListUsersQuery = z.infer<typeof listUsersQuerySchema>;

export const adminUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  roles: z.array(roleSchema),
  emailVerified: z.boolean(),
  createdAt: z.string(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const listUsersResponseSchema = z.object({
  data: z.array(adminUserSchema),
  total: z.number().int(),
});
export type ListUsersResponse = z.infer<typeof listUsersResponseSchema>;
