import { z } from 'zod';

/**
 * Every messageKey the API can answer with. Each one has an en and a de text under
 * `errors.<key>` in locales/; a unit test holds both lists together.
 */
export const MESSAGE_KEYS = [
  'DEFAULT',
  'VALIDATION_FAILED',
  'INVALID_JSON',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
  'NOT_FOUND',
  'TOO_MANY_REQUESTS',
  'UNAUTHORIZED',
  'SESSION_EXPIRED',
  'FORBIDDEN',
  'WRONG_CREDENTIALS',
  'USER_NOT_VERIFIED',
  'NOT_AN_ADMIN',
  'INVALID_TOKEN',
  'EMAIL_ALREADY_REGISTERED',
  'PASSWORD_TOO_WEAK',
  'INVALID_VERIFICATION_CODE',
  'VERIFICATION_CODE_EXPIRED',
  'ALREADY_VERIFIED',
  'INVALID_PASSWORD_TOKEN',
  'WRONG_OLD_PASSWORD',
  'PHONE_NUMBER_INVALID',
  'REGION_NOT_FOUND',
  'EMAIL_VERIFICATION_FAILED',
  'SOCIAL_ALREADY_CONNECTED',
  'FACEBOOK_CALLBACK_ERROR',
  'SOCIAL_SIGN_IN_FAILED',
  'SOCIAL_DENIED',
  'STATE_MISMATCH',
  'REDIRECT_URL_NOT_ALLOWED',
  'SOCIAL_EMAIL_UNVERIFIED',
  'SOCIAL_EMAIL_IN_USE',
  'SOCIAL_NOT_CONNECTED',
  'SOCIAL_LAST_SIGN_IN_METHOD',
  'SOCIAL_PROVIDER_UNAVAILABLE',
  'BILLING_UNAVAILABLE',
  'DISCOUNT_NOT_FOUND',
  'DISCOUNT_EXPIRED',
  'DISCOUNT_ARCHIVED',
  'DISCOUNT_NOT_HUMBLE_BUNDLE',
  'DISCOUNT_USAGE_LIMIT_EXCEEDED',
  'INVALID_COUPON_CODE',
  'INVALID_REGION_OR_VAT',
  'PRICE_NOT_FOUND',
  'INVALID_WEBHOOK_SIGNATURE',
  'SUBSCRIPTION_NOT_FOUND',
  'SUBSCRIPTION_LOCKED',
  'INVOICE_NOT_FOUND',
  'PRORATION_NOT_CHARGEABLE',
  'SUBSCRIPTION_CHANGE_PENDING',
  'PRODUCT_ALREADY_OWNED',
  'SUBSCRIPTION_EXISTS',
  'DISCOUNT_NOT_ELIGIBLE',
  'REFUND_WINDOW_CLOSED',
  'LICENCE_NOT_FOUND',
  'BILLING_EMAIL_TAKEN',
  'POSTAL_CODE_INVALID',
  'POSTAL_CODE_REQUIRED',
  'VAT_NUMBER_INVALID',
  'SESSION_NOT_FOUND',
  'REAUTHENTICATION_REQUIRED',
  'WRONG_PASSWORD',
  'TOO_MANY_STREAMS',
  'COUPON_INVALID',
  'COUPON_ALREADY_ACTIVATED',
  'COUPON_EXPIRED',
  'COUPON_USED_UP',
  'DEVICE_ALREADY_ATTACHED',
  'SEAT_NOT_FOUND',
  'SEAT_LIMIT_REACHED',
  'DEVICE_TOKEN_INVALID',
  'COUPON_EXISTS',
  'LITE_KEY_INVALID',
  'LITE_KEY_CLAIMED',
  'USER_NOT_FOUND',
  'CANNOT_MODIFY_SELF',
  'LAST_ADMIN',
  /** Issue 21: a users grid filter with a value it does not know (e.g. `plan=gold`). */
  'USER_FILTER_INVALID',
  'ANALYTICS_RANGE_INVALID',
  'ANALYTICS_PLAYED_RANGE_INVALID',
  'JOB_NOT_RETRYABLE',
  /** Issue 20 item 7: the new sign-in address is the current one. */
  'EMAIL_UNCHANGED',
  /** Issue 20 item 8: a verification link that matches nothing (made up, or cut short). */
  'VERIFICATION_LINK_INVALID',
  /** Issue 21: an admin's resend of the verification mail to an account that is verified already. */
  'USER_ALREADY_VERIFIED',
  /** Issue 21: an admin's release of a device that is not (or no longer) one of the user's. */
  'DEVICE_NOT_FOUND',
  /** Client-side: the payment provider's script did not load. */
  'PAYMENT_SCRIPT_FAILED',
  /** Issue 44: the second factor and passkeys. */
  'INVALID_TWO_FACTOR_CODE',
  'TWO_FACTOR_CHALLENGE_EXPIRED',
  'TWO_FACTOR_ALREADY_ENABLED',
  'TWO_FACTOR_SETUP_NOT_STARTED',
  'TWO_FACTOR_NOT_ENABLED',
  'TWO_FACTOR_ENROLMENT_REQUIRED',
  'PASSKEY_NOT_FOUND',
  'PASSKEY_VERIFICATION_FAILED',
  'PASSKEY_CEREMONY_EXPIRED',
  'PASSKEY_ALREADY_REGISTERED',
  /** Issue 44 item 10: a password from the common-password list. */
  'PASSWORD_TOO_COMMON',
  /** Issue 44 item 9: a correctly signed Paddle notification whose data fails the schema (400, not 500). */
  'WEBHOOK_PAYLOAD_INVALID',
  /** Issue 46 item 1: the customer's 14-day refund of this release (or of the subscription) was given once already. */
  'REFUND_ALREADY_USED',
  /** Issue 46 item 7: a trial cannot pause; a pause's resume date before it starts (or over a year on); no pause to resume. */
  'PAUSE_NOT_IN_TRIAL',
  'PAUSE_RESUME_DATE_INVALID',
  'SUBSCRIPTION_NOT_PAUSED',
  /** Issue 46 item 7: a payment is overdue: the card is updated first (Paddle would forgive it on pausing). */
  'SUBSCRIPTION_PAST_DUE',
  /** Issue 46 item 9: a chargeback raised in development for a transaction that is not a completed payment. */
  'CHARGEBACK_NOT_POSSIBLE',
  /** Issue 47: a write from a staff member's read-only view of a customer's account. */
  'READ_ONLY_VIEW',
  /** Issue 47: "view as this user" of a staff account (their pages hold other people's data). */
  'STAFF_NOT_VIEWABLE',
] as const;

export type MessageKey = (typeof MESSAGE_KEYS)[number];

export const errorBodySchema = z.object({
  messageKey: z.string(),
  message: z.string(),
});

export type ErrorBody = z.infer<typeof errorBodySchema>;
