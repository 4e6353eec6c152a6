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
] as const;

export type MessageKey = (typeof MESSAGE_KEYS)[number];

export const errorBodySchema = z.object({
  messageKey: z.string(),
  message: z.string(),
});

export type ErrorBody = z.infer<typeof errorBodySchema>;
