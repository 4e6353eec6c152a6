import { createMemoryStorage } from '../../providers/session.js';

/** Test doubles shared by the unit tests: an in-memory Storage and JWT-shaped tokens. */

/** A Map-backed implementation of the Web Storage interface (the app's own). */
export const memoryStorage = createMemoryStorage;

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** A token jwt-decode can read: header.payload.signature with `exp` in seconds. */
export function jwt(expSeconds: number, extra: Record<string, unknown> = {}): string {
  return `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url({ exp: expSeconds, ...extra })}.not-a-real-signature`;
}
