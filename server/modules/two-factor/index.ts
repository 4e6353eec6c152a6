/**
 * Issue 44, the second factor: an authenticator app (TOTP) with recovery codes, passkeys (WebAuthn), and
 * sign-in in two steps for the accounts that have one. Other modules use only this face:
 *
 * - `twoFactorModule`: the account's own routes under /users/me, the second step and the passkey sign-in
 *   under /auth, and the admin's reset of a user's second factor.
 * - `secondStepFor`: what every first step of a sign-in (password, admin, Google, Facebook) calls once its
 *   own checks passed: a challenge instead of tokens for an account with a second factor.
 * - `pruneTwoFactor`: housekeeping of ended challenges and ceremonies.
 */
import type { ModuleContext, PortalModule } from '../../context.js';
import type { TwoFactorDeps } from './deps.js';
import { twoFactorRoutes } from './routes.js';

/** The second factor's services over the shared context (the auth and oauth modules' first steps use them too). */
export function twoFactorDepsOf(context: ModuleContext): TwoFactorDeps {
  return { db: context.db.kysely, clock: context.clock, throttle: context.throttle, sessions: context.sessions, users: context.users, appUrl: context.config.appUrl };
}

export const twoFactorModule: PortalModule = async (app, context) => {
  await app.register(twoFactorRoutes, { deps: twoFactorDepsOf(context), guards: context.guards });
};

export { secondStepFor, pruneTwoFactor, CHALLENGE_TTL_MS, CHALLENGE_MAX_TRIES, type FirstStep } from './sign-in.js';
export type { TwoFactorDeps } from './deps.js';
export { twoFactorRecordsOf } from './repo.js';
