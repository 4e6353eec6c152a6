import type { SignInResult, TwoFactorStep } from '../../../providers/authProvider.js';
import { authProvider, messageKeyOf } from '../../../providers/index.js';
import { askForPasskey, cancelPasskeyCeremony, isCancelled } from '../../passkeys/webauthn.js';

/**
 * Signing in with a passkey on /login and /admin/login, and answering the second step with one (issue 44):
 * the server's options, the browser's ceremony, the server's check. Loaded with `import()` when a passkey is
 * used or offered, so the sign-in pages carry none of it. Null when the person cancelled (nothing to show).
 */

/** The failure of a ceremony the browser could not finish: the passkey could not be checked. */
const notVerified: SignInResult = { success: false, error: { name: 'PASSKEY_VERIFICATION_FAILED', message: 'PASSKEY_VERIFICATION_FAILED' } };

async function ceremony(run: () => Promise<SignInResult>): Promise<SignInResult | null> {
  try {
    return await run();
  } catch (error) {
    if (isCancelled(error)) return null;
    // The server refused to start (its messageKey), or the browser failed in a way of its own.
    const messageKey = messageKeyOf(error);
    return messageKey === 'DEFAULT' ? notVerified : { success: false, error: { name: messageKey, message: messageKey } };
  }
}

/** A sign-in with a passkey alone (a discoverable credential): the browser asks which one. */
export function signInWithPasskey(params: { rememberMe: boolean; admin: boolean }): Promise<SignInResult | null> {
  return ceremony(async () => {
    const { ceremony: id, options } = await authProvider.passkeySignInOptions();
    const response = await askForPasskey(options);
    return authProvider.passkeySignIn({ ceremony: id, response, rememberMe: params.rememberMe, admin: params.admin });
  });
}

/** The second step answered with one of the account's passkeys. */
export function answerWithPasskey(step: TwoFactorStep): Promise<SignInResult | null> {
  return ceremony(async () => {
    const options = await authProvider.twoFactorPasskeyOptions(step);
    const response = await askForPasskey(options);
    return authProvider.completeTwoFactor(step, { passkey: response });
  });
}

/** A ceremony's options live 5 minutes on the server: the autofill's are renewed before. */
export const AUTOFILL_RENEWAL_MS = 4 * 60_000;

/**
 * The browser's passkey autofill on the sign-in field (conditional mediation), kept ready while the first
 * step shows: a passkey picked there signs in as the button would. The browser runs one ceremony at a time:
 * the button's `pause`s the autofill (its own ceremony takes the autofill's place) and `resume`s it after;
 * a failed sign-in offers it anew. `stop` when the page goes.
 */
export function offerPasskeyAutofill(handlers: {
  admin: boolean;
  rememberMe: () => boolean;
  onResult: (result: SignInResult) => void;
}): { pause: () => void; resume: () => void; stop: () => void } {
  let running = false;
  let paused = false;
  let stopped = false;
  let renewing = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const round = async (): Promise<void> => {
    if (running || paused || stopped) return;
    running = true;
    let again = false;
    try {
      const { ceremony: id, options } = await authProvider.passkeySignInOptions();
      // The button's ceremony started meanwhile: starting this one would end it.
      if (paused || stopped) return;
      timer = setTimeout(() => {
        renewing = true;
        cancelPasskeyCeremony();
      }, AUTOFILL_RENEWAL_MS);
      const response = await askForPasskey(options, true);
      clearTimeout(timer);
      const result = await authProvider.passkeySignIn({ ceremony: id, response, rememberMe: handlers.rememberMe(), admin: handlers.admin });
      if (stopped) return;
      handlers.onResult(result);
      again = !result.success;
    } catch {
      // Renewed, or taken over by the button's ceremony, or not offered at all (no options, no field):
      // only a renewal starts over. Nothing of it is the person's to see.
      clearTimeout(timer);
      again = renewing;
    } finally {
      running = false;
      renewing = false;
    }
    if (again && !stopped) void round();
  };

  void round();
  return {
    pause: () => {
      paused = true;
    },
    resume: () => {
      paused = false;
      void round();
    },
    stop: () => {
      stopped = true;
      clearTimeout(timer);
      if (running) cancelPasskeyCeremony();
    },
  };
}
