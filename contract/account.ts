import { z } from 'zod';
import { emailSchema } from './auth.js';
import { PASSWORD_MAX_LENGTH } from './password.js';
import { PHONE_PATTERN } from './phone.js';

const password = z.string().min(1).max(PASSWORD_MAX_LENGTH);

export const checkResetTokenResponseSchema = z.object({ valid: z.boolean() });
export const resetPasswordRequestSchema = z.object({ passwordToken: z.string().min(16).max(128), newPassword: password });
export const okResponseSchema = z.object({ ok: z.literal(true) });

export const checkOldPasswordRequestSchema = z.object({ oldPassword: password });
export const checkOldPasswordResponseSchema = z.object({ result: z.boolean() });

/**
 * `PATCH /users/password`. With the session's offline token, remember-me survives the change. An account
 * that signs in only through Google or Facebook has no old password and sets its first one without it.
 */
export const changePasswordRequestSchema = z.object({
  password,
  oldPassword: password.optional(),
  offlineToken: z.string().max(512).optional(),
});
export const changePasswordResponseSchema = z.object({ access_token: z.string(), offline_token: z.string().optional() });

/** `PATCH /users/me`: only the profile fields the user owns (never roles, verification or email). */
export const profileUpdateSchema = z
  .object({
    firstName: z.string().trim().min(1).max(100),
    lastName: z.string().trim().min(1).max(100),
    phone: z.string().trim().max(32).nullable(),
    newsletter: z.boolean(),
    language: z.enum(['en', 'de']),
    /** ISO 3166-1 alpha-2; an unknown code answers REGION_NOT_FOUND. */
    country: z.string().trim().max(8).nullable(),
    /** Kept until the coupons module (issue "Licences, devices, coupons") redeems it. */
    couponCode: z.string().trim().max(64).nullable(),
  })
  .partial()
  .strict();
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

export { PHONE_PATTERN };

/** One of the user's signed-in sessions (issue 17: `GET /users/me/sessions`). */
export const sessionViewSchema = z.object({
  id: z.uuid(),
  /** The session of the request that asked ("this device"). */
  current: z.boolean(),
  createdAt: z.string(),
  lastActiveAt: z.string(),
  /** Its absolute end: 12 hours after sign-in, or 30 days with "remember me". */
  expiresAt: z.string(),
  /** Parsed from the user agent at sign-in, e.g. "Chrome 131"; null when unknown. */
  browser: z.string().nullable(),
  os: z.string().nullable(),
  /** The client address it signed in from. */
  address: z.string().nullable(),
  /**
   * Issue 47: a support team member's read-only view of the account (at most 15 minutes), not a sign-in of the
   * owner; its browser, system and address (the staff member's) are not shown.
   */
  supportView: z.boolean(),
});
export type SessionView = z.infer<typeof sessionViewSchema>;

/**
 * Issue 47: when support viewed the account as its owner sees it (`GET /users/me/views`, the security page:
 * "viewed by support on …"), newest first; each view was read-only and lasted until `until` at most.
 */
export const staffViewSchema = z.object({ viewedAt: z.string(), until: z.string().nullable() });
export type StaffView = z.infer<typeof staffViewSchema>;
export const staffViewsResponseSchema = z.array(staffViewSchema);
export const sessionsResponseSchema = z.array(sessionViewSchema);
export const sessionIdParamsSchema = z.object({ id: z.uuid() });
export const sessionsEndedResponseSchema = z.object({ ended: z.number().int() });

/**
 * `DELETE /users/me`: the current password, or, for an account without one (Google or Facebook only),
 * a sign-in within the last 10 minutes.
 */
export const deleteAccountRequestSchema = z.object({ password: password.optional() }).strict();

/**
 * Issue 20 item 7, `POST /users/me/email`: the new sign-in address and the current password (left out
 * by an account that signs in only with Google or Facebook and has none). A code goes to the new address.
 */
export const emailChangeRequestSchema = z.object({ email: emailSchema, password: password.optional() });
export type EmailChangeRequest = z.infer<typeof emailChangeRequestSchema>;
/** The same answer whether or not the address is free (no account enumeration). */
export const emailChangeResponseSchema = z.object({ sent: z.literal(true), email: z.string(), expiresAt: z.string() });
export type EmailChangeResponse = z.infer<typeof emailChangeResponseSchema>;
/** `POST /users/me/email/confirm`: the 6-digit code from the mail; answers the user with the new email. */
export const emailChangeConfirmSchema = z.object({ code: z.string().regex(/^\d{6}$/) });
