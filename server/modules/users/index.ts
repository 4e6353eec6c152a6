import type { ModuleContext, PortalModule } from '../../context.js';
import { accountRoutes } from './account-routes.js';
import { PASSWORD_RESET_JOB, passwordResetJob, type AccountDeps } from './account.js';
import { registrationRoutes } from './registration-routes.js';
import { VERIFICATION_RESEND_JOB, verificationResendJob, type RegistrationDeps } from './registration.js';
import { meRoutes } from './routes.js';
import { EmailChangesRepo, VerificationsRepo } from './verifications.js';

/**
 * Accounts: registration and email verification, the profile, the password (change, reset, the rules a new
 * one must meet), the sign-in email's change, and `/users/me`. Billing's facts for `/users/me` come through
 * the BillingFacts port (users never imports billing).
 */
export function registrationDepsOf(context: ModuleContext): RegistrationDeps {
  return {
    db: context.db.kysely,
    users: context.users,
    verifications: new VerificationsRepo(context.db.kysely),
    sessions: context.sessions,
    throttle: context.throttle,
    clock: context.clock,
    appUrl: context.config.appUrl,
    jobs: context.jobs,
  };
}

export const usersModule: PortalModule = async (app, context) => {
  const registration = registrationDepsOf(context);
  const account: AccountDeps = {
    db: context.db.kysely,
    users: context.users,
    sessions: context.sessions,
    offlineTokens: context.offlineTokens,
    throttle: context.throttle,
    clock: context.clock,
    appUrl: context.config.appUrl,
    jobs: context.jobs,
    billingFacts: context.billingFacts,
  };
  const emailChange = {
    db: context.db.kysely,
    users: context.users,
    changes: new EmailChangesRepo(context.db.kysely),
    throttle: context.throttle,
    clock: context.clock,
    appUrl: context.config.appUrl,
    jobs: context.jobs,
    billingFacts: context.billingFacts,
  };
  context.jobs.handle(VERIFICATION_RESEND_JOB, verificationResendJob(registration));
  context.jobs.handle(PASSWORD_RESET_JOB, passwordResetJob(account));
  await app.register(meRoutes, { deps: { clock: context.clock, billingFacts: context.billingFacts }, guards: context.guards });
  await app.register(registrationRoutes, { deps: registration });
  await app.register(accountRoutes, { deps: account, emailChange, guards: context.guards });
};

export { BILLING_EMAIL_FOLLOWS_JOB } from './email-change.js';
export { assertAcceptablePassword, burnPasswordCheck, countCurrentPasswordAttempt, hashPassword, RECENT_SIGN_IN_MS, verifyPassword } from './passwords.js';
export { resendVerificationFor, type RegistrationDeps } from './registration.js';
export { UsersRepo, type AuthSession, type UserWithRoles } from './repo.js';
export { meOf, seedAdmin, type BillingFacts, type MeBilling, type MeDeps, type SeedResult } from './service.js';
export { markFirstDownload } from './first-download-repo.js';
