/**
 * Issue 44's values without any schema library, so the sign-in pages can ask about a second step
 * without loading zod (they are held to /login's JavaScript budget).
 */

/** The ways a sign-in's second step can be answered. */
export const TWO_FACTOR_METHODS = ['totp', 'recovery', 'passkey'] as const;
export type TwoFactorMethod = (typeof TWO_FACTOR_METHODS)[number];

/** The first step's answer for an account with a second factor: no token, a challenge to answer. */
export interface TwoFactorRequired {
  twoFactorRequired: true;
  /** Opaque; lives 5 minutes and allows 5 wrong answers. */
  challenge: string;
  methods: TwoFactorMethod[];
}

/** The longest name a passkey may have (the security page's field says so before the server does). */
export const PASSKEY_NAME_MAX_LENGTH = 60;

/** True for a sign-in answer that asks for the second factor instead of giving tokens. */
export function isTwoFactorRequired(answer: object): answer is TwoFactorRequired {
  return 'twoFactorRequired' in answer && answer.twoFactorRequired === true;
}

/** A code from an authenticator app as typed: six digits once spaces are dropped (totpCodeSchema's rule); null otherwise. */
export function totpCodeOf(typed: string): string | null {
  const code = typed.replace(/\s+/g, '');
  return /^\d{6}$/.test(code) ? code : null;
}

/** A recovery code as typed (`xxxxx-xxxxx`, any case, spaces and dashes forgiven: recoveryCodeSchema's rule); null otherwise. */
export function recoveryCodeOf(typed: string): string | null {
  if (typed.length > 64) return null;
  const code = typed.replace(/[\s-]+/g, '').toLowerCase();
  return /^[a-z0-9]{10}$/.test(code) ? code : null;
}
