import { z } from 'zod';
import { emailSchema } from './auth.js';
import { PASSWORD_MAX_LENGTH } from './password.js';

const name = z.string().trim().min(1).max(100);
const flag = z.enum(['true', 'false']).transform((value) => value === 'true');

/** `POST /users` body (spec sections 3 and 7). The privacy policy, terms and EULA must be accepted. */
export const registrationRequestSchema = z.object({
  email: emailSchema,
  password: z.string().max(PASSWORD_MAX_LENGTH),
  firstName: name,
  lastName: name,
  newsletter: z.boolean().optional().default(false),
  couponCode: z.string().trim().max(64).nullish(),
  privacyAccepted: z.literal(true),
  /** `siggraph2023` for /registration/siggraph2023 (recorded as the sign-up source). */
  source: z.enum(['web', 'siggraph2023']).optional().default('web'),
  language: z.enum(['en', 'de']).optional(),
});
export type RegistrationRequest = z.input<typeof registrationRequestSchema>;

export const registrationQuerySchema = z.object({
  /** With true the mail carries a 6-digit code for /users/confirm besides the link. */
  generateVerificationCode: flag.optional(),
  /** True when the visitor registers from the external checkout. */
  externalRegistration: flag.optional(),
});

export const registrationResponseSchema = z.object({ id: z.string(), email: z.string(), emailVerified: z.boolean() });

export const verifyCodeRequestSchema = z.object({
  email: emailSchema,
  code: z.string().trim().regex(/^\d{6}$/),
});
export const verifyCodeResponseSchema = z.object({ access_token: z.string() });

/**
 * `GET /users/validate/{token}`: verified; with an access token when the link was opened in the browser that
 * asked for the mail (issue 48 item 5: it signs in there, as the code does).
 */
export const verifyLinkResponseSchema = z.object({ verified: z.literal(true), access_token: z.string().optional() });

export const resendQuerySchema = z.object({ generateVerificationCode: flag.optional() });
export const resendResponseSchema = z.object({ sent: z.literal(true) });
