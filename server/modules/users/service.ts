import { randomBytes, randomUUID } from 'node:crypto';
import { permissionsOf } from '../../../contract/permissions.js';
import type { Me } from '../../../contract/users.js';
import type { Clock } from '../../clock.js';
import { hashPassword } from './passwords.js';
import type { UsersRepo, UserWithRoles } from './repo.js';

/** What `/users/me` says of the user's billing (spec section 3), read from their subscriptions and licences. */
export interface MeBilling {
  subscriptionId: string | null;
  eligibleForDiscountBasedOnPreviousVersion: boolean;
}

/**
 * Where the users module learns a user's billing facts for `/users/me`. Billing owns them and depends on
 * users, so users asks through this port, which server/app.ts fills with billing's `meBillingOf`: users
 * never imports billing (docs/architecture.md, "Module dependencies").
 */
export type BillingFacts = (userId: string, now: Date) => Promise<MeBilling>;

/** What the current user's answer is built from. */
export interface MeDeps {
  clock: Clock;
  billingFacts: BillingFacts;
}

/**
 * The current user as `/users/me` and every answer that returns them: their live subscription's id (the
 * earliest bought, never a duplicate being undone), and whether the upgrade price is theirs (they own
 * the previous release and not the current one). `twoFactorEnrolmentRequired` is the guard's finding
 * (server/plugins/authentication.ts): only `GET /users/me` and the enrolment routes answer a staff
 * member who must still enrol, so every other answer that returns the user is false by construction.
 */
export async function meOf(
  deps: MeDeps,
  user: UserWithRoles,
  options: { twoFactorEnrolmentRequired?: boolean; readOnlyView?: Me['readOnlyView'] } = {},
): Promise<Me> {
  return toMe(user, await deps.billingFacts(user.id, deps.clock.now()), options.twoFactorEnrolmentRequired ?? false, options.readOnlyView ?? null);
}

function toMe(user: UserWithRoles, billing: MeBilling, twoFactorEnrolmentRequired: boolean, readOnlyView: Me['readOnlyView']): Me {
  return {
    id: user.id,
    email: user.email,
    firstName: user.first_name,
    lastName: user.last_name,
    roles: user.roles,
    emailVerified: user.email_verified_at !== null,
    subscriptionId: billing.subscriptionId,
    eligibleForDiscountBasedOnPreviousVersion: billing.eligibleForDiscountBasedOnPreviousVersion,
    createdAt: user.created_at,
    phone: user.phone,
    newsletter: user.newsletter === 1,
    language: user.language === 'de' ? 'de' : 'en',
    hasPassword: user.password_hash !== null,
    country: user.country,
    couponCode: user.coupon_code,
    googleConnected: user.google_links > 0,
    facebookConnected: user.facebook_links > 0,
    twoFactorEnabled: user.two_factor_enabled === 1,
    twoFactorEnrolmentRequired,
    // Issue 47: from the roles the guard read with the user, no query of its own; a view acts as no staff.
    permissions: readOnlyView ? [] : permissionsOf(user.roles),
    readOnlyView,
  };
}

export interface SeedResult {
  email: string;
  /** Set only when this call created the admin with a generated password: print it once. */
  generatedPassword?: string;
  created: boolean;
}

/**
 * Makes sure the configured first admin exists. An existing account is left as it is (its password is
 * never reset by a restart); a missing one is created verified with the configured or a random password.
 */
export async function seedAdmin(
  users: UsersRepo,
  clock: Clock,
  email: string,
  configuredPassword: string | undefined,
): Promise<SeedResult> {
  const existing = await users.findByEmail(email);
  if (existing) return { email, created: false };
  const generatedPassword = configuredPassword ? undefined : randomBytes(12).toString('base64url');
  const now = clock.now().toISOString();
  try {
    await users.insert(
      {
        id: randomUUID(),
        email,
        password_hash: await hashPassword(configuredPassword ?? (generatedPassword as string)),
        first_name: 'Admin',
        last_name: null,
        email_verified_at: now,
        signup_source: 'seed',
        created_at: now,
        updated_at: now,
      },
      ['user', 'admin'],
    );
  } catch (error) {
    // Instances started together on one database: another one created the admin first.
    if (await users.findByEmail(email)) return { email, created: false };
    throw error;
  }
  return { email, generatedPassword, created: true };
}

