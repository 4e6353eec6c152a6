import type { Kysely } from 'kysely';
import type { ZodError } from 'zod';
import type { Database } from '../../db/schema.js';
import { digest } from '../../digest.js';
import { countRejection } from './webhooks-repo.js';

/** A correctly signed notification the portal cannot read: what identifies it, and where it failed. */
export interface Rejection {
  /** Paddle's event id when the body has one; otherwise the notification is known by its body's digest. */
  eventId: string | null;
  eventType: string | null;
  rawBody: string;
  problem: string;
}

/** Where data failed its schema, as paths (under `within`) and zod's codes: never the values, which may be personal. */
export function describeProblem(error: ZodError, within?: string): string {
  return error.issues
    .slice(0, 10)
    .map((issue) => `${[within, ...issue.path.map(String)].filter(Boolean).join('.') || '(root)'}: ${issue.code}`)
    .join('; ');
}

/**
 * Issue 44 item 9: remembers a rejected notification (by event id, or the body's digest) and counts its
 * deliveries, in one statement every instance can run at once; true only for its first delivery, so it
 * is logged once however often Paddle retries it.
 */
export async function rememberRejection(db: Kysely<Database>, rejection: Rejection, at: Date): Promise<boolean> {
  const key = rejection.eventId ? `event:${rejection.eventId}` : `body:${digest(rejection.rawBody)}`;
  const deliveries = await countRejection(db, { key, eventId: rejection.eventId, eventType: rejection.eventType, problem: rejection.problem.slice(0, 2000), at: at.toISOString() });
  return deliveries === 1;
}
