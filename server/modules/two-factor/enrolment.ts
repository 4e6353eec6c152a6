import type { RecoveryCodesResponse, TotpSetupResponse, TwoFactorStatus } from '../../../contract/two-factor.js';
import { digest } from '../../digest.js';
import { AppError } from '../../errors.js';
import { RECENT_SIGN_IN_MS, type AuthSession, type UserWithRoles, countCurrentPasswordAttempt, verifyPassword } from '../users/index.js';
import { recordChange, type TwoFactorDeps } from './deps.js';
import { newRecoveryCodes, normaliseRecoveryCode } from './recovery-codes.js';
import * as repo from './repo.js';
import { matchingStep, newTotpSecret, otpauthUri } from './totp.js';

/**
 * A wrong code on a signed-in route. 400, not 401: the web app hears 401 as "the session is over" and
 * signs out (providers/authProvider.ts, onError); the sign-in's second step, which has no session, says 401.
 */
const wrongCode = () => new AppError('INVALID_TWO_FACTOR_CODE', 400);

/**
 * Takes a code of the account's confirmed authenticator app: within one step either side of now, and
 * only a step later than any code accepted before, so a code is never accepted twice (two requests with
 * the same code: the conditional update lets one through). False for anything else.
 */
export async function takeTotpCode(deps: Pick<TwoFactorDeps, 'db' | 'clock'>, userId: string, code: string): Promise<boolean> {
  const totp = await repo.totpOf(deps.db, userId);
  if (!totp || totp.confirmed_at === null) return false;
  const step = matchingStep(totp.secret, code, deps.clock.now());
  return step !== null && (await repo.takeTotpStep(deps.db, userId, step));
}

/**
 * Proof that the person at the keyboard owns the account, before a factor is turned off or recovery codes
 * are replaced (contract/two-factor.ts, reauthenticationSchema): the password; for an account without one,
 * a current authenticator code, or a sign-in within the last 10 minutes (as deleting the account asks).
 * Failures count against the route's guess limit (GUESS_LIMITS.twoFactor).
 */
export async function confirmOwner(deps: TwoFactorDeps, user: UserWithRoles, session: AuthSession, proof: { password?: string | undefined; code?: string | undefined }): Promise<void> {
  if (user.password_hash !== null) {
    // The same counter as every other route that asks for the current password (auth/passwords.ts).
    await countCurrentPasswordAttempt(deps.throttle, user.id);
    if (!proof.password || !(await verifyPassword(user.password_hash, proof.password))) throw new AppError('WRONG_PASSWORD', 403);
    return;
  }
  if (proof.code !== undefined) {
    if (!(await takeTotpCode(deps, user.id, proof.code))) throw wrongCode();
    return;
  }
  const startedAt = await deps.sessions.startedAt(session.id);
  if (startedAt === undefined || deps.clock.now().getTime() - Date.parse(startedAt) > RECENT_SIGN_IN_MS) throw new AppError('REAUTHENTICATION_REQUIRED', 403);
}

/** `GET /users/me/two-factor`. */
export async function statusOf(deps: TwoFactorDeps, userId: string): Promise<TwoFactorStatus> {
  return repo.factorsOf(deps.db, userId);
}

/**
 * `POST /users/me/two-factor/totp`: a new secret for the authenticator app, pending until a code from it
 * confirms it (a new one replaces an earlier pending one). 409 when the account has a confirmed one.
 */
export async function startTotpSetup(deps: TwoFactorDeps, user: UserWithRoles): Promise<TotpSetupResponse> {
  const secret = newTotpSecret();
  if (!(await repo.startTotp(deps.db, user.id, secret, deps.clock.now().toISOString()))) throw new AppError('TWO_FACTOR_ALREADY_ENABLED', 409);
  return { secret, otpauthUri: otpauthUri(secret, user.email) };
}

/**
 * `POST /users/me/two-factor/totp/confirm`: a code from the pending secret turns it on, with ten new
 * recovery codes (shown this once, kept as digests). The code's step counts as used.
 */
export async function confirmTotpSetup(deps: TwoFactorDeps, user: UserWithRoles, code: string): Promise<RecoveryCodesResponse> {
  const pending = await repo.totpOf(deps.db, user.id);
  if (!pending) throw new AppError('TWO_FACTOR_SETUP_NOT_STARTED', 409);
  if (pending.confirmed_at !== null) throw new AppError('TWO_FACTOR_ALREADY_ENABLED', 409);
  const now = deps.clock.now();
  const step = matchingStep(pending.secret, code, now);
  if (step === null) throw wrongCode();
  const recoveryCodes = newRecoveryCodes();
  await deps.db.transaction().execute(async (trx) => {
    const owner = await repo.lockAccount(trx, user.id);
    if (!owner) throw new AppError('UNAUTHORIZED', 401);
    // Confirmed meanwhile by another request, or replaced by a new setup: this code proves nothing now.
    if (!(await repo.confirmTotp(trx, user.id, pending.secret, step, now.toISOString()))) {
      const current = await repo.totpOf(trx, user.id);
      throw new AppError(current?.confirmed_at ? 'TWO_FACTOR_ALREADY_ENABLED' : 'TWO_FACTOR_SETUP_NOT_STARTED', 409);
    }
    await repo.replaceRecoveryCodes(trx, user.id, recoveryCodes.map((value) => digest(normaliseRecoveryCode(value))), now.toISOString());
    await repo.syncFactorFlag(trx, user.id);
    await recordChange(trx, deps, { owner: { id: user.id, ...owner }, kind: 'two_factor.enabled', mail: 'twoFactorEnabled', at: now });
  });
  deps.users.changed(user.id);
  return { recoveryCodes };
}

/**
 * `DELETE /users/me/two-factor`: the authenticator app and the recovery codes are turned off (passkeys
 * stay; they are removed one by one). 409 TWO_FACTOR_NOT_ENABLED when there was neither.
 */
export async function disableTotp(deps: TwoFactorDeps, user: UserWithRoles, session: AuthSession, proof: { password?: string | undefined; code?: string | undefined }): Promise<void> {
  await confirmOwner(deps, user, session, proof);
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    const owner = await repo.lockAccount(trx, user.id);
    if (!owner) throw new AppError('UNAUTHORIZED', 401);
    const hadTotp = await repo.deleteTotp(trx, user.id);
    const codesLeft = await repo.deleteRecoveryCodes(trx, user.id);
    if (!hadTotp && codesLeft === 0) throw new AppError('TWO_FACTOR_NOT_ENABLED', 409);
    const stillOn = await repo.syncFactorFlag(trx, user.id);
    await recordChange(trx, deps, { owner: { id: user.id, ...owner }, kind: 'two_factor.disabled', mail: 'twoFactorDisabled', details: { secondFactorLeft: stillOn }, at: now });
  });
  deps.users.changed(user.id);
}

/**
 * `POST /users/me/two-factor/recovery-codes`: ten new codes; the earlier ones stop working. 409
 * TWO_FACTOR_NOT_ENABLED for an account without a second factor (the codes would guard nothing).
 */
export async function renewRecoveryCodes(deps: TwoFactorDeps, user: UserWithRoles, session: AuthSession, proof: { password?: string | undefined; code?: string | undefined }): Promise<RecoveryCodesResponse> {
  await confirmOwner(deps, user, session, proof);
  const now = deps.clock.now();
  const recoveryCodes = newRecoveryCodes();
  await deps.db.transaction().execute(async (trx) => {
    const owner = await repo.lockAccount(trx, user.id);
    if (!owner) throw new AppError('UNAUTHORIZED', 401);
    if (!(await repo.syncFactorFlag(trx, user.id))) throw new AppError('TWO_FACTOR_NOT_ENABLED', 409);
    await repo.replaceRecoveryCodes(trx, user.id, recoveryCodes.map((value) => digest(normaliseRecoveryCode(value))), now.toISOString());
    await recordChange(trx, deps, { owner: { id: user.id, ...owner }, kind: 'recovery_codes.renewed', mail: null, at: now });
  });
  return { recoveryCodes };
}
