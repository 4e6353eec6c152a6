import { AppError } from '../../errors.js';
import type { StaffActor } from '../activity/index.js';
import { recordChange, type TwoFactorDeps } from './deps.js';
import * as repo from './repo.js';

/**
 * `DELETE /users/{id}/two-factor` (admin): for someone who lost their phone and their recovery codes,
 * support removes every second factor of the account (the authenticator app, the recovery codes, the
 * passkeys) and every open sign-in challenge, after checking who they are by their own means. Recorded in
 * the admin audit trail and the timeline with the admin as actor, and mailed to the account's owner (the
 * way back in for an attacker who talked support into it, so the owner hears at once). An admin cannot
 * reset their own (another admin does, so no single phished session removes an admin's second factor).
 */
export async function resetTwoFactorOf(deps: TwoFactorDeps, staff: StaffActor, targetId: string): Promise<void> {
  if (targetId === staff.id) throw new AppError('CANNOT_MODIFY_SELF', 409);
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    const owner = await repo.lockAccount(trx, targetId);
    if (!owner) throw new AppError('USER_NOT_FOUND', 404);
    // Challenges before factors, the order a second step takes them in, so the two never wait on each other.
    await repo.deleteChallenges(trx, targetId);
    const totp = await repo.deleteTotp(trx, targetId);
    const passkeys = await repo.deletePasskeys(trx, targetId);
    const recoveryCodes = await repo.deleteRecoveryCodes(trx, targetId);
    if (!totp && passkeys === 0 && recoveryCodes === 0) throw new AppError('TWO_FACTOR_NOT_ENABLED', 409);
    await repo.syncFactorFlag(trx, targetId);
    await recordChange(trx, deps, { owner: { id: targetId, ...owner }, kind: 'two_factor.reset', mail: 'twoFactorReset', staff, details: { totp, passkeys }, at: now });
  });
  // The flag is the signed-in user's (a staff member without a factor must enrol again): every instance reads it anew.
  deps.users.changed(targetId);
}
