import { randomBytes, timingSafeEqual } from 'node:crypto';
import { digest } from '../../digest.js';

/**
 * Issue 48 item 5: the mailed verification link signs the new account in, but only in the browser that asked
 * for the mail. That browser (the registration's, or a resend's) gets a random key in a cookie, and the
 * pending verification keeps the key's digest. The link proves the inbox as the code does; the key proves the
 * browser. Without it the link verifies and the person signs in as usual: a link opened by a mail scanner or
 * forwarded gets no session, and someone who registers another person's address (knowing the password they
 * chose) cannot have that person land signed in to the account they control by clicking "verify" in an
 * unexpected mail. The code needs no such key: it is typed into the portal by someone who chose to.
 *
 * HttpOnly (no script reads it), SameSite=Strict (no other site's request carries it), sent only to the link's
 * endpoint, and gone with the verification it was made for; Secure when the portal is served over HTTPS.
 */
export const VERIFICATION_BROWSER_COOKIE = 'shapelab_verification';
const COOKIE_PATH = '/api/users/validate';

/** A new key for the browser that asks for a mail, and the digest the pending verification keeps. */
export function newBrowserKey(): { key: string; hash: string } {
  const key = randomBytes(32).toString('base64url');
  return { key, hash: digest(key) };
}

function attributes(appUrl: string, maxAge: number): string {
  const secure = appUrl.startsWith('https:') ? '; Secure' : '';
  return `Path=${COOKIE_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure}`;
}

/** The `Set-Cookie` value that gives the browser its key, for as long as the verification it asked for lives. */
export function browserKeyCookie(key: string, appUrl: string, lifetimeSeconds: number): string {
  return `${VERIFICATION_BROWSER_COOKIE}=${key}; ${attributes(appUrl, lifetimeSeconds)}`;
}

/** The `Set-Cookie` value that takes the key back once the link has signed in with it. */
export function clearedBrowserKeyCookie(appUrl: string): string {
  return `${VERIFICATION_BROWSER_COOKIE}=; ${attributes(appUrl, 0)}`;
}

/** The key a request's Cookie header carries, or null. */
export function browserKeyOf(cookieHeader: string | undefined): string | null {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === VERIFICATION_BROWSER_COOKIE && value.length > 0) return value.join('=') || null;
  }
  return null;
}

/** Whether `key` is the one whose digest the pending verification keeps (compared in constant time). */
export function isBrowserOf(pending: { browser_hash: string | null }, key: string | null): boolean {
  if (pending.browser_hash === null || key === null) return false;
  return timingSafeEqual(Buffer.from(pending.browser_hash, 'hex'), Buffer.from(digest(key), 'hex'));
}
