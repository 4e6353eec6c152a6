import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/**
 * The authenticator app's codes (RFC 6238 with the `otpauth` library) as every common app reads them from
 * the QR code: SHA-1, 6 digits, a new code every 30 seconds, issuer "Shapelab", labelled with the email.
 */
const ISSUER = 'Shapelab';
const ALGORITHM = 'SHA1';
const DIGITS = 6;
const PERIOD_SECONDS = 30;
/** A code of the step before or after the current one is accepted too: the phone's clock may be off, the user slow. */
const WINDOW_STEPS = 1;
/** RFC 4226 section 4 recommends 160 bits. */
const SECRET_BYTES = 20;

/** A new random secret, in base32 (what the QR code carries and what a user types by hand). */
export function newTotpSecret(): string {
  return new Secret({ buffer: randomBytes(SECRET_BYTES).buffer }).base32;
}

/** `otpauth://totp/Shapelab:<email>?issuer=Shapelab&secret=...`: the QR code's content. */
export function otpauthUri(secret: string, email: string): string {
  return new TOTP({ issuer: ISSUER, label: email, secret: Secret.fromBase32(secret), algorithm: ALGORITHM, digits: DIGITS, period: PERIOD_SECONDS }).toString();
}

/**
 * The time step (seconds since 1970 / 30) whose code `code` is, within one step either side of `now`, or
 * null. The caller accepts it only if no code of this step or a later one was accepted before (replay).
 */
export function matchingStep(secret: string, code: string, now: Date): number | null {
  const timestamp = now.getTime();
  const delta = TOTP.validate({ token: code, secret: Secret.fromBase32(secret), algorithm: ALGORITHM, digits: DIGITS, period: PERIOD_SECONDS, timestamp, window: WINDOW_STEPS });
  if (delta === null) return null;
  return TOTP.counter({ period: PERIOD_SECONDS, timestamp }) + delta;
}
