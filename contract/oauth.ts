import { z } from 'zod';
import { twoFactorRequiredSchema } from './two-factor.js';

export const SOCIAL_PROVIDERS = ['google', 'facebook'] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];

const redirectUrl = z.string().max(500);

/** `GET /auth/{provider}/login?redirectUrl`: where the provider sends the browser back (this portal only). */
export const authorizeQuerySchema = z.object({ redirectUrl });
export const authorizeResponseSchema = z.object({ authorizeUrl: z.string() });

/** `POST /auth/{provider}/redirect|connect` and `POST /auth/facebook/disconnect`: what the provider sent back. */
export const callbackRequestSchema = z.object({
  code: z.string().min(1).max(2048),
  state: z.string().min(1).max(256),
  /** RFC 9207: the issuer the provider names in its answer, checked against the one we asked. */
  iss: z.string().max(500).optional(),
  redirectUrl,
});
export type CallbackRequest = z.infer<typeof callbackRequestSchema>;

export const socialLoginResponseSchema = z.union([
  z.object({
    access_token: z.string(),
    /** True when this sign-in created the account. */
    isNewUser: z.boolean(),
  }),
  // Issue 44: an account with a second factor answers its challenge at POST /auth/login/two-factor.
  twoFactorRequiredSchema,
]);

export const providerParamsSchema = z.object({ provider: z.enum(SOCIAL_PROVIDERS) });
