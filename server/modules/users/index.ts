import type { ModuleContext, PortalModule } from '../../context.js';
import { PASSWORD_RESET_JOB, passwordResetJob, type AccountDeps } from './account.js';
import { EmailChangesRepo } from './email-changes-repo.js';
import type { EmailChangeDeps } from './email-change.js';
import { PasswordResetsRepo } from './password-resets-repo.js';
import { passwordRoutes } from './password-routes.js';
import { profileRoutes } from './profile-routes.js';
import { registrationRoutes } from './registration-routes.js';
import { VERIFICATION_RESEND_JOB, verificationResendJob, type RegistrationDeps } from './registration.js';
import { VerificationsRepo } from './verifications-repo.js';

/**
 * Accounts: registration and email verification, the profile, the password (change, reset, the rules a new
 * one must meet), the sign-in email's change, and `/users/me`. Billing's facts for `/users/me` come through
 * the BillingFacts port (users never imports billing). Every statement on the accounts' tables (`users`,
 * `user_roles`, `email_verifications`, `email_changes`, `password_resets`) is in this module's repositories;
 * other modules use the ones exported below, the staff's directory of accounts among them.
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
    resets: new PasswordResetsRepo(context.db.kysely),
    sessions: context.sessions,
    offlineTokens: context.offlineTokens,
    throttle: context.throttle,
    clock: context.clock,
    appUrl: context.config.appUrl,
    jobs: context.jobs,
    billingFacts: context.billingFacts,
  };
  const emailChange: EmailChangeDeps = {
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
  await app.register(profileRoutes, { deps: account, emailChange, guards: context.guards });
  await app.register(passwordRoutes, { deps: account, guards: context.guards });
  await app.register(registrationRoutes, { deps: registration });
};

export { adminUserOf, exportBatches, listUsers, supportProfileOf, type DirectoryDb, type DirectoryUser, type ExportRow } from './directory-repo.js';
export { BILLING_EMAIL_FOLLOWS_JOB } from './email-change.js';
export { assertAcceptablePassword, burnPasswordCheck, countCurrentPasswordAttempt, hashPassword, RECENT_SIGN_IN_MS, verifyPassword } from './passwords.js';
export { resendVerificationFor, type RegistrationDeps } from './registration.js';
export {
  accountExists,
  countOtherAdmins,
  deleteAccountRow,
  emailsOf,
  lockOtherAdmins,
  recipientOf,
  registeredAt,
  replaceRoles,
  rolesIn,
  SIGNED_UP_JOB,
  UsersRepo,
  type AccountChanged,
  type AuthSession,
  type UserWithRoles,
} from './repo.js';
export { SIGNED_IN_MAX_AGE_MS, SignedInUsers, type SignedIn } from './signed-in.js';
export { lockAccountsForReports, signupsOf } from './reporting-repo.js';
export { meOf, seedAdmin, type BillingFacts, type MeBilling, type MeDeps, type SeedResult } from './service.js';
export { markFirstDownload, markLaunched } from './usage-marks-repo.js';
