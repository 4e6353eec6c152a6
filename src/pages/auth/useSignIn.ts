import { useCallback, useState } from 'react';
import type { SignInResult, TwoFactorStep } from '../../../providers/authProvider.js';

/** Where a sign-in attempt ended: signed in, refused (its messageKey), or on to the second step (issue 44). */
export type SignInOutcome = { signedIn: true } | { signedIn: false; messageKey: string } | { signedIn: false; twoFactor: TwoFactorStep };

export function outcomeOf(result: SignInResult): SignInOutcome {
  if (result.success) return { signedIn: true };
  if (result.twoFactor) return { signedIn: false, twoFactor: result.twoFactor };
  return { signedIn: false, messageKey: result.error?.message ?? 'DEFAULT' };
}

/**
 * Sign-in for the public pages, straight on the auth provider (the public pages run without <Refine> to stay
 * light): one attempt at a time (the password step, a passkey, the second step), with `pending` while it
 * runs. Resolves to its outcome, or null when the person cancelled it (a passkey dialog closed).
 */
export function useSignIn() {
  const [pending, setPending] = useState(false);
  const attempt = useCallback(async (run: () => Promise<SignInResult | null>): Promise<SignInOutcome | null> => {
    setPending(true);
    try {
      const result = await run();
      return result === null ? null : outcomeOf(result);
    } finally {
      setPending(false);
    }
  }, []);
  return { attempt, pending };
}
