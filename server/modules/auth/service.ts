import type { LoginResponse, ValidateTokenResponse } from '../../../contract/auth.js';
import { isAdmin } from '../../../contract/users.js';
import { AppError } from '../../errors.js';
import type { UsersRepo, UserWithRoles } from '../users/repo.js';
import type { AccessTokens } from './access-tokens.js';
import type { OfflineTokens } from './offline-tokens.js';
import type { Throttle, ThrottleRule } from './throttle.js';
import { burnPasswordCheck, verifyPassword } from './passwords.js';

export interface AuthDeps {
  users: UsersRepo;
  accessTokens: AccessTokens;
  offlineTokens: OfflineTokens;
  throttle: Throttle;
}

/** Wrong passwords per account: past this, sign-in for that address is refused (429) for the window. */
const SIGN_IN_FAILURES: ThrottleRule = { limit: 10, windowSeconds: 15 * 60 };

/**
 * The one answer for "no such account" and "wrong password", reached in the same time either way,
 * so sign-in never tells whether an email is registered.
 */
async function checkCredentials(deps: AuthDeps, email: string, password: string): Promise<UserWithRoles> {
  const key = `login:${email}`;
  await deps.throttle.check(key, SIGN_IN_FAILURES);
  const user = await deps.users.findByEmail(email);
  const matches =
    user && user.password_hash !== null
      ? await verifyPassword(user.password_hash, password)
      : (await burnPasswordCheck(password), false);
  if (!user || !matches) {
    await deps.throttle.hit(key, SIGN_IN_FAILURES);
    throw new AppError('WRONG_CREDENTIALS', 401);
  }
  await deps.throttle.reset(key);
  return user;
}

export async function login(
  deps: AuthDeps,
  input: { email: string; password: string; rememberMe: boolean },
): Promise<LoginResponse> {
  const user = await checkCredentials(deps, input.email, input.password);
  // Only after the right password, so this reveals nothing to someone who does not own the account.
  if (user.email_verified_at === null) throw new AppError('USER_NOT_VERIFIED', 403);
  const access_token = await deps.accessTokens.sign(user.id, user.roles);
  if (!input.rememberMe) return { access_token };
  return { access_token, offline_token: await deps.offlineTokens.issue(user.id) };
}

export async function adminLogin(
  deps: AuthDeps,
  input: { email: string; password: string },
): Promise<{ access_token: string }> {
  const user = await checkCredentials(deps, input.email, input.password);
  if (!isAdmin(user.roles)) throw new AppError('NOT_AN_ADMIN', 403);
  return { access_token: await deps.accessTokens.sign(user.id, user.roles) };
}

/** Renews a session from its offline token (spec section 4); the offline token is rotated. */
export async function renew(deps: AuthDeps, offlineToken: string): Promise<ValidateTokenResponse> {
  const rotated = await deps.offlineTokens.rotate(offlineToken);
  const user = await deps.users.findById(rotated.userId);
  if (!user) throw new AppError('INVALID_TOKEN', 401);
  return { access_token: await deps.accessTokens.sign(user.id, user.roles), offline_token: rotated.token };
}

export async function logout(deps: AuthDeps, offlineToken: string | undefined): Promise<void> {
  if (offlineToken) await deps.offlineTokens.revoke(offlineToken);
}
