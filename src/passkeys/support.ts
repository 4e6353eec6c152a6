/**
 * What the browser offers for passkeys, asked without loading the WebAuthn code (src/passkeys/webauthn.ts,
 * loaded only when used: /login keeps its JavaScript budget).
 */

/** The browser can make and use passkeys (WebAuthn). */
export function supportsPasskeys(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

/** The browser offers passkeys in a sign-in field's autofill (WebAuthn conditional mediation). */
export async function supportsPasskeyAutofill(): Promise<boolean> {
  if (!supportsPasskeys()) return false;
  const available = (window.PublicKeyCredential as { isConditionalMediationAvailable?: () => Promise<boolean> }).isConditionalMediationAvailable;
  return typeof available === 'function' ? available.call(window.PublicKeyCredential).catch(() => false) : false;
}

/** Runs `work` once the page is idle (or after a moment where the browser cannot tell); returns its cancel. */
export function whenIdle(work: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(work, { timeout: 3000 });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = setTimeout(work, 1500);
  return () => clearTimeout(handle);
}
