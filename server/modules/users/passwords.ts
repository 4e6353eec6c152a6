import { hash, verify, type Algorithm, type Options } from '@node-rs/argon2';
import { isStrongEnough } from '../../../contract/password.js';
import { isTooCommon } from '../../../contract/password-strength.js';
import { AppError } from '../../errors.js';
import type { Throttle, ThrottleRule } from '../auth/index.js';

/**
 * argon2id with the OWASP Password Storage Cheat Sheet's first configuration:
 * m = 19 MiB, t = 2, p = 1. (`Algorithm` is a const enum in the binding's types; 2 is Argon2id.)
 */
const ARGON2ID_OWASP: Options = {
  algorithm: 2 as Algorithm,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
};

/**
 * The rule for every new password (registration, reset, change): spec section 5's 8 characters mixing
 * letters and numbers (400 PASSWORD_TOO_WEAK), and none from the common-password list (400
 * PASSWORD_TOO_COMMON, issue 44 item 10; contract/password-strength.ts says which).
 */
export async function assertAcceptablePassword(password: string): Promise<void> {
  if (!isStrongEnough(password)) throw new AppError('PASSWORD_TOO_WEAK', 400);
  if (await isTooCommon(password)) throw new AppError('PASSWORD_TOO_COMMON', 400);
}

/**
 * Guesses at a signed-in account's current password, wherever it is asked for (checking it, changing it,
 * changing the sign-in email, deleting the account): one counter for the one secret, so a stolen session
 * gets ten tries in 15 minutes in all, not ten on each route (issue 44 item 9, a guess counter per purpose).
 */
const CURRENT_PASSWORD_ATTEMPTS: ThrottleRule = { limit: 10, windowSeconds: 15 * 60 };

export function countCurrentPasswordAttempt(throttle: Throttle, userId: string): Promise<void> {
  return throttle.hit(`old-password:${userId}`, CURRENT_PASSWORD_ATTEMPTS);
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2ID_OWASP);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * A hash with the same cost as real ones, verified when no account matches, so a sign-in for an
 * unknown email takes as long as one with a wrong password (no account enumeration by timing).
 */
let decoyHash: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  decoyHash ??= hash('decoy-password-that-never-matches', ARGON2ID_OWASP);
  await verifyPassword(await decoyHash, password);
}

/**
 * An account without a password (Google or Facebook only) proves it is its owner by having signed in this
 * recently: deleting the account (issue 17) and changing its second factor (issue 44) ask for it.
 */
export const RECENT_SIGN_IN_MS = 10 * 60 * 1000;
