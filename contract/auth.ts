import { z } from 'zod';
import { EMAIL_MAX_LENGTH, isValidEmail, normalizeEmail } from './email.js';
import { twoFactorRequiredSchema } from './two-factor.js';

export const emailSchema = z
  .string()
  .trim()
  .max(EMAIL_MAX_LENGTH)
  .refine(isValidEmail, 'Invalid email')
  .transform(normalizeEmail);

/** Sign-in never reveals the password rules; length is capped only to bound hashing work. */
const signInPasswordSchema = z.string().min(1).max(1024);

export const loginRequestSchema = z.object({
  email: emailSchema,
  password: signInPasswordSchema,
  rememberMe: z.boolean().optional().default(false),
});
export type LoginRequest = z.input<typeof loginRequestSchema>;

/** The tokens a finished sign-in answers (the offline token only with "remember me"). */
export const signInTokensSchema = z.object({
  access_token: z.string(),
  offline_token: z.string().optional(),
});
export type SignInTokens = z.infer<typeof signInTokensSchema>;

/** `POST /auth/login`: the tokens, or for an account with a second factor its challenge (issue 44). */
export const loginResponseSchema = z.union([signInTokensSchema, twoFactorRequiredSchema]);
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** `POST /auth/login/two-factor`: the tokens, as the first step gives them to an account without a second factor. */
export const twoFactorLoginResponseSchema = signInTokensSchema;

export const adminLoginRequestSchema = z.object({
  email: emailSchema,
  password: signInPasswordSchema,
});
export type AdminLoginRequest = z.input<typeof adminLoginRequestSchema>;

export const adminLoginResponseSchema = z.union([z.object({ access_token: z.string() }), twoFactorRequiredSchema]);

export const validateTokenRequestSchema = z.object({
  authToken: z.string().max(4096).optional().default(''),
  offlineToken: z.string().min(1).max(512),
});
export type ValidateTokenRequest = z.input<typeof validateTokenRequestSchema>;

export const validateTokenResponseSchema = z.object({
  access_token: z.string(),
  offline_token: z.string(),
});
export type ValidateTokenResponse = z.infer<typeof validateTokenResponseSchema>;

export const logoutRequestSchema = z.object({
  offlineToken: z.string().max(512).optional(),
});
