import type { LoginResponse, ValidateTokenResponse } from '../../../contract/auth.js';
import type { TwoFactorRequired } from '../../../contract/two-factor-values.js';
import { isStaff } from '../../../contract/users.js';
import { AppError } from '../../errors.js';
import { type UsersRepo, type UserWithRoles } from '../users/index.js';
import type { OfflineTokens } from './offline-tokens.js';
import type { Throttle, ThrottleRule } from './throttle.js';
import { burnPasswordCheck, verifyPassword } from '../users/index.js';
import type { SessionClient, Sessions } from './sessions.js';
import { secondStepFor, type TwoFactorDeps } from '../two-factor/index.js';

export interface AuthDeps {
  users: UsersRepo;
  offlineTokens: OfflineTokens;
  throttle: Throttle;
  sessions: Sessions;
  twoFactor: TwoFactorDeps;
}

/**
 * Failed sign-ins (OWASP Authentication Cheat Sheet), counted in the database so every instance shares
 * them: per account and client address, a lock for that pair only, so guessing from one address never
 * locks the owner out from theirs; per address, a lock for an address trying many accounts; per account
 * across all addresses, no lock but a growing delay, so a slow attack spread over many addresses gets
 * slower and slower while the owner still signs in.
 */
const FAILURES_PER_ACCOUNT_AND_ADDRESS: ThrottleRule = { limit: 10, windowSeconds: 15 * 60 };
const FAILURES_PER_ADDRESS: ThrottleRule = { limit: 50, windowSeconds: 15 * 60 };
const FAILURES_PER_ACCOUNT: ThrottleRule = { limit: Number.MAX_SAFE_INTEGER, windowSeconds: 60 * 60 };
/** Failures of one account (from anywhere) before each attempt is delayed; the delay doubles to at most 5 s. */
const DELAY_AFTER_FAILURES = 10;
const FIRST_DELAY_MS = 100;
const MAX_DELAY_MS = 5000;

/** How long an attempt at an account that has failed `failures` times this hour waits first. */
export function signInDelayMs(failures: number): number {
  if (failures < DELAY_AFTER_FAILURES) return 0;
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (failures - DELAY_AFTER_FAILURES));
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The one answer for "no such account" and "wrong password", reached in the same time either way,
 * so sign-in never tells whether an email is registered.
 */
async function checkCredentials(deps: AuthDeps, email: string, password: string, client: SessionClient): Promise<UserWithRoles> {
  const address = client.address ?? 'unknown';
  const pairKey = `login:${email}:${address}`;
  const addressKey = `login-address:${address}`;
  const accountKey = `login-account:${email}`;
  await deps.throttle.check(pairKey, FAILURES_PER_ACCOUNT_AND_ADDRESS);
  await deps.throttle.check(addressKey, FAILURES_PER_ADDRESS);
  const delay = signInDelayMs(await deps.throttle.count(accountKey));
  if (delay > 0) await pause(delay);
  const user = await deps.users.findByEmail(email);
  const matches =
    user && user.password_hash !== null
      ? await verifyPassword(user.password_hash, password)
      : (await burnPasswordCheck(password), false);
  if (!user || !matches) {
    await deps.throttle.hit(accountKey, FAILURES_PER_ACCOUNT);
    await deps.throttle.hit(addressKey, FAILURES_PER_ADDRESS);
    await deps.throttle.hit(pairKey, FAILURES_PER_ACCOUNT_AND_ADDRESS);
    throw new AppError('WRONG_CREDENTIALS', 401);
  }
  await deps.throttle.reset(pairKey);
  return user;
}

/** Signs in with email and password: a session of 12 hours, or 30 days with an offline token for "remember me". */
export async function login(
  deps: AuthDeps,
  input: { email: string; password: string; rememberMe: boolean },
  client: SessionClient,
): Promise<LoginResponse> {
  const user = await checkCredentials(deps, input.email, input.password, client);
  // Only after the right password, so this reveals nothing to someone who does not own the account.
  if (user.email_verified_at === null) throw new AppError('USER_NOT_VERIFIED', 403);
  // Issue 44: an account with a second factor gets a challenge instead of tokens.
  const secondStep = await secondStepFor(deps.twoFactor, user, { method: 'password', remember: input.rememberMe });
  if (secondStep) return secondStep;
  const session = await deps.sessions.start(user, { method: 'password', remember: input.rememberMe, client });
  return session.offline_token ? { access_token: session.access_token, offline_token: session.offline_token } : { access_token: session.access_token };
}

export async function adminLogin(deps: AuthDeps, input: { email: string; password: string }, client: SessionClient): Promise<{ access_token: string } | TwoFactorRequired> {
  const user = await checkCredentials(deps, input.email, input.password, client);
  // Issue 47: every staff role signs in here (what each may do is its permissions'); a customer may not.
  if (!isStaff(user.roles)) throw new AppError('NOT_AN_ADMIN', 403);
  const secondStep = await secondStepFor(deps.twoFactor, user, { method: 'admin', remember: false });
  if (secondStep) return secondStep;
  const session = await deps.sessions.start(user, { method: 'admin', remember: false, client });
  return { access_token: session.access_token };
}

/**
 * Renews a session from its offline token (spec section 4); the offline token is rotated. The session
 * must be live: a signed-out or ended one renews nothing, and the new access token ends with it.
 */
export async function renew(deps: AuthDeps, offlineToken: string, client: SessionClient): Promise<ValidateTokenResponse> {
  const rotated = await deps.offlineTokens.rotate(offlineToken, client);
  const user = await deps.users.findById(rotated.userId);
  if (!user) throw new AppError('INVALID_TOKEN', 401);
  const session = await deps.sessions.live(rotated.sessionId, user.id);
  if (!session) throw new AppError('SESSION_EXPIRED', 401);
  return { access_token: await deps.sessions.renewToken(user, session), offline_token: rotated.token };
}

/**
 * Signs out: the session of the access token (or, when it has expired, of the offline token) ends now;
 * its access tokens answer 401 from the next request and its offline tokens are revoked.
 */
export async function logout(deps: AuthDeps, input: { offlineToken?: string | undefined; session: { userId: string; sessionId: string } | null }): Promise<void> {
  const remembered = input.offlineToken ? await deps.offlineTokens.revoke(input.offlineToken) : null;
  const session = input.session ?? (remembered?.sessionId ? { userId: remembered.userId, sessionId: remembered.sessionId } : null);
  if (session) await deps.sessions.end(session.userId, session.sessionId, 'signed-out');
}
