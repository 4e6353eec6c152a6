import type { LoginResponse, ValidateTokenResponse } from '../../../contract/auth.js';
import { isAdmin } from '../../../contract/users.js';
import { AppError } from '../../errors.js';
import type { UsersRepo, UserWithRoles } from '../users/repo.js';
import type { AccessTokens } from './access-tokens.js';
import type { OfflineTokens } from './offline-tokens.js';
import { burnPasswordCheck, verifyPassword } from './passwords.js';

export interface AuthDeps {
  users: UsersRepo;
  accessTokens: AccessTokens;
  offlineTokens: OfflineTokens;
}

/**
 * The one answer for "no such account" and "wrong password", reached in the same time either way,
 * so sign-in never tells whether an email is registered.
 */
async function checkCredentials(users: UsersRepo, email: string, password: string): Promise<UserWithRoles> {
  const user = await users.findByEmail(email);
  if (!user || user.password_hash === null) {
    await burnPasswordCheck(password);
    throw new AppError('WRONG_CREDENTIALS', 401);
  }
  if (!(await verifyPassword(user.password_hash, password))) throw new AppError('WRONG_CREDENTIALS', 401);
  return user;
}

export async function login(
  deps: AuthDeps,
  input: { email: string; password: string; rememberMe: boolean },
): Promise<LoginResponse> {
  const user = await checkCredentials(deps.users, input.email, input.password);
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
  const user = await checkCredentials(deps.users, input.email, input.password);
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
