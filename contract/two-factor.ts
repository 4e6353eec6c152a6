import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from './password.js';
import { PASSKEY_NAME_MAX_LENGTH, TWO_FACTOR_METHODS, type TwoFactorRequired } from './two-factor-values.js';

/**
 * Issue 44: a second factor (TOTP, RFC 6238, with recovery codes) and passkeys (WebAuthn), and sign-in
 * in two steps for an account that has one. The WebAuthn ceremonies' JSON (options and responses) is
 * SimpleWebAuthn's, passed through as it is: the server verifies it with @simplewebauthn/server, the
 * browser makes it with @simplewebauthn/browser, so neither side restates its fields here.
 */

export { isTwoFactorRequired, TWO_FACTOR_METHODS, type TwoFactorMethod } from './two-factor-values.js';

/** A six-digit code from an authenticator app (spaces a user types between the digits are dropped). */
export const totpCodeSchema = z
  .string()
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/));

/** A recovery code as printed (`xxxxx-xxxxx`); case, spaces and dashes are forgiven. */
export const recoveryCodeSchema = z
  .string()
  .max(64)
  .transform((value) => value.replace(/[\s-]+/g, '').toLowerCase())
  .pipe(z.string().regex(/^[a-z0-9]{10}$/));

/** What WebAuthn hands over (SimpleWebAuthn's *ResponseJSON); verified by the server, bounded here. */
const webauthnJsonSchema = z.record(z.string(), z.unknown()).refine((value) => JSON.stringify(value).length <= 16_384, 'too large');

/** `POST /users/me/two-factor/totp`: a new secret, inactive until confirmed with a code from it. */
export const totpSetupResponseSchema = z.object({
  /** Base32, for typing into an app by hand. */
  secret: z.string(),
  /** `otpauth://totp/Shapelab:<email>?secret=...&issuer=Shapelab`, for the QR code. */
  otpauthUri: z.string(),
});
export type TotpSetupResponse = z.infer<typeof totpSetupResponseSchema>;

/** `POST /users/me/two-factor/totp/confirm`. */
export const totpConfirmRequestSchema = z.object({ code: totpCodeSchema });

/** The ten recovery codes, shown once (confirm, and `POST /users/me/two-factor/recovery-codes`). */
export const recoveryCodesResponseSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponseSchema>;

/** `GET /users/me/two-factor`. */
export const twoFactorStatusSchema = z.object({
  totp: z.boolean(),
  /** How many passkeys the account has. */
  passkeys: z.number().int(),
  recoveryCodesLeft: z.number().int(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

/**
 * Proof that the person at the keyboard owns the account, for turning the second factor off, making new
 * recovery codes and removing a passkey: the password (WRONG_PASSWORD otherwise). An account without one
 * (Google or Facebook only) gives a current code from its authenticator app, or has signed in within the
 * last 10 minutes, as for deleting the account (REAUTHENTICATION_REQUIRED otherwise).
 */
export const reauthenticationSchema = z.object({
  password: z.string().min(1).max(PASSWORD_MAX_LENGTH).optional(),
  code: totpCodeSchema.optional(),
});
export type Reauthentication = z.input<typeof reauthenticationSchema>;

/** The first step's answer for an account with a second factor: no token, a challenge to answer. */
export const twoFactorRequiredSchema = z.object({
  twoFactorRequired: z.literal(true),
  challenge: z.string(),
  methods: z.array(z.enum(TWO_FACTOR_METHODS)),
}) satisfies z.ZodType<TwoFactorRequired>;

/** `POST /auth/login/two-factor`: the challenge and one answer to it. */
export const twoFactorLoginRequestSchema = z.union([
  z.object({ challenge: z.string().min(1).max(256), code: totpCodeSchema }).strict(),
  z.object({ challenge: z.string().min(1).max(256), recoveryCode: recoveryCodeSchema }).strict(),
  z.object({ challenge: z.string().min(1).max(256), passkey: webauthnJsonSchema }).strict(),
]);
export type TwoFactorLoginRequest = z.input<typeof twoFactorLoginRequestSchema>;

/** `POST /auth/login/two-factor/passkey`: WebAuthn options for answering a challenge with a passkey. */
export const twoFactorPasskeyOptionsRequestSchema = z.object({ challenge: z.string().min(1).max(256) });

/** WebAuthn options for the browser (SimpleWebAuthn's PublicKeyCredential*OptionsJSON). */
export const passkeyOptionsResponseSchema = z.object({ options: z.record(z.string(), z.unknown()) });

/** `POST /auth/passkey/options`: a sign-in with a passkey alone (discoverable credential). */
export const passkeySignInOptionsResponseSchema = z.object({
  /** Names this sign-in ceremony; sent back with the browser's answer. Lives 5 minutes, used once. */
  ceremony: z.string(),
  options: z.record(z.string(), z.unknown()),
});

/** `POST /auth/passkey`. `admin` signs in to the admin area (staff only), as `/auth/admin-login`. */
export const passkeySignInRequestSchema = z.object({
  ceremony: z.string().min(1).max(256),
  response: webauthnJsonSchema,
  rememberMe: z.boolean().optional().default(false),
  admin: z.boolean().optional().default(false),
});

/** One of the account's passkeys (`GET /users/me/passkeys`). */
export const passkeyViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type PasskeyView = z.infer<typeof passkeyViewSchema>;

export { PASSKEY_NAME_MAX_LENGTH };
const passkeyNameSchema = z.string().trim().min(1).max(PASSKEY_NAME_MAX_LENGTH);

/** `POST /users/me/passkeys`: the browser's answer to the registration options, and a name for it. */
export const passkeyRegisterRequestSchema = z.object({ name: passkeyNameSchema, response: webauthnJsonSchema });
/** `PATCH /users/me/passkeys/{id}`. */
export const passkeyRenameRequestSchema = z.object({ name: passkeyNameSchema });
export const passkeyParamsSchema = z.object({ id: z.string().min(1).max(1024) });
