import {
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';

/**
 * The browser's side of a passkey ceremony, through @simplewebauthn/browser (issue 44). The server makes the
 * options and checks the answer (contract/two-factor.ts passes both through as SimpleWebAuthn's JSON). This
 * module is loaded with `import()` only when a passkey is used or offered, never with a page.
 */
export type WebAuthnJson = Record<string, unknown>;

/** Asks the browser for a passkey (a sign-in, or a second step); `autofill` offers it in the sign-in field instead of a dialog. */
export async function askForPasskey(options: WebAuthnJson, autofill = false): Promise<WebAuthnJson> {
  const response = await startAuthentication({ optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON, useBrowserAutofill: autofill });
  return { ...response };
}

/** Asks the browser (or the security key) to make a passkey for the account. */
export async function createPasskey(options: WebAuthnJson): Promise<WebAuthnJson> {
  const response = await startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON });
  return { ...response };
}

/** Ends the ceremony under way, if any (the page that asked is going). */
export function cancelPasskeyCeremony(): void {
  WebAuthnAbortService.cancelCeremony();
}

function nameOf(error: unknown): string {
  if (!(error instanceof Error)) return '';
  const cause = error.cause instanceof Error ? error.cause.name : '';
  return `${error.name} ${cause} ${'code' in error ? String(error.code) : ''}`;
}

/** The person closed the browser's dialog, or another ceremony took its place: nothing to report. */
export function isCancelled(error: unknown): boolean {
  return /NotAllowedError|AbortError|ERROR_CEREMONY_ABORTED/.test(nameOf(error));
}

/** The authenticator already holds a passkey of this account. */
export function isAlreadyRegistered(error: unknown): boolean {
  return /InvalidStateError|ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED/.test(nameOf(error));
}
