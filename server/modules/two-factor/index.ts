/**
 * Issue 44, the second factor: an authenticator app (TOTP) with recovery codes, passkeys (WebAuthn), and
 * sign-in in two steps for the accounts that have one. Other modules use only this face:
 *
 * - `twoFactorRoutes`: the account's own routes under /users/me, the second step and the passkey sign-in
 *   under /auth, and the admin's reset of a user's second factor.
 * - `secondStepFor`: what every first step of a sign-in (password, admin, Google, Facebook) calls once its
 *   own checks passed: a challenge instead of tokens for an account with a second factor.
 * - `pruneTwoFactor`: housekeeping of ended challenges and ceremonies.
 */
export { twoFactorRoutes } from './routes.js';
export { secondStepFor, pruneTwoFactor, CHALLENGE_TTL_MS, CHALLENGE_MAX_TRIES, type FirstStep } from './sign-in.js';
export type { TwoFactorDeps } from './deps.js';
