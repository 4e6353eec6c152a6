import { timingSafeEqual } from 'node:crypto';
import { AppError } from '../../errors.js';

/** A code dies after this many wrong tries (a new one comes with a resend or a new request). */
export const MAX_CODE_ATTEMPTS = 5;

interface PendingCode {
  code_hash: string;
  attempts: number;
  expires_at: string | Date;
  used_at: string | Date | null;
}

/**
 * The one rule for a mailed 6-digit code, registration's and a change of address's alike: unknown or used
 * answers INVALID_VERIFICATION_CODE, expired or worn out by MAX_CODE_ATTEMPTS wrong tries answers
 * VERIFICATION_CODE_EXPIRED, and a wrong code counts (`countFailure`) before it answers. Compared in
 * constant time. Returns when the code is right.
 */
export async function checkCode(
  pending: PendingCode | undefined,
  givenHash: string,
  now: Date,
  countFailure: () => Promise<number>,
): Promise<void> {
  if (!pending || pending.used_at !== null) throw new AppError('INVALID_VERIFICATION_CODE', 400);
  if (pending.attempts >= MAX_CODE_ATTEMPTS || new Date(pending.expires_at) <= now) throw new AppError('VERIFICATION_CODE_EXPIRED', 400);
  if (!timingSafeEqual(Buffer.from(pending.code_hash, 'hex'), Buffer.from(givenHash, 'hex'))) {
    const attempts = await countFailure();
    throw new AppError(attempts >= MAX_CODE_ATTEMPTS ? 'VERIFICATION_CODE_EXPIRED' : 'INVALID_VERIFICATION_CODE', 400);
  }
}
