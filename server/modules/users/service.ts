import { randomBytes, randomUUID } from 'node:crypto';
import type { Me } from '../../../contract/users.js';
import type { Clock } from '../../clock.js';
import { hashPassword } from '../auth/passwords.js';
import type { UsersRepo, UserWithRoles } from './repo.js';

export function toMe(user: UserWithRoles): Me {
  return {
    id: user.id,
    email: user.email,
    firstName: user.first_name,
    lastName: user.last_name,
    roles: user.roles,
    emailVerified: user.email_verified_at !== null,
    // Subscriptions and the upgrade discount arrive with the billing issue; until then nobody has them.
    subscriptionId: null,
    eligibleForDiscountBasedOnPreviousVersion: false,
    createdAt: user.created_at,
    phone: user.phone,
    newsletter: user.newsletter === 1,
    language: user.language === 'de' ? 'de' : 'en',
    hasPassword: user.password_hash !== null,
    country: user.country,
    couponCode: user.coupon_code,
    googleConnected: user.google_links > 0,
    facebookConnected: user.facebook_links > 0,
  };
}

/** The current user, as the bearer guard loaded it for this request. */
export function getMe(user: UserWithRoles): Me {
  return toMe(user);
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
  return { email, generatedPassword, created: true };
}

