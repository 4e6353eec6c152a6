import { randomInt } from 'node:crypto';

/** Letters and digits that cannot be mistaken for one another when read from paper (no 0/o, 1/l/i). */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const RECOVERY_CODE_COUNT = 10;

/**
 * Ten recovery codes as shown to the user once (`xxxxx-xxxxx`, about 49 bits each: guessing is bounded by
 * the guess limits long before). Stored only as digests of their normalised form (contract/two-factor.ts,
 * recoveryCodeSchema: lower case, no dashes).
 */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const characters = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
    return `${characters.slice(0, 5)}-${characters.slice(5)}`;
  });
}

/** A recovery code as its digest is taken: lower case, without dashes or spaces. */
export function normaliseRecoveryCode(code: string): string {
  return code.replace(/[\s-]+/g, '').toLowerCase();
}
