import { createHash } from 'node:crypto';

/** SHA-256 hex digest: how every emailed code, link and opaque token is stored (never the secret itself). */
export function digest(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
