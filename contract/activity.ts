import { z } from 'zod';

/**
 * An account's timeline (issue 21): one log every service writes when it acts on an account, read by
 * support on the admin user page (`GET /users/{id}/activity`). Kinds are `area.event`.
 */
export const ACTIVITY_KINDS = [
  'account.registered',
  'email.verified',
  'verification.resent',
  'email.changed',
  'session.signed_in',
  'sessions.ended',
  'password.changed',
  'password.reset',
  'purchase.completed',
  'purchase.refunded',
  'purchase.duplicate_undone',
  'subscription.cancelled',
  'subscription.resumed',
  'device.activated',
  'device.released',
  'coupon.redeemed',
  'roles.changed',
  'account.deleted',
  'user.deleted',
  /** Issue 44: an authenticator app confirmed (with the first recovery codes), turned off, new recovery codes. */
  'two_factor.enabled',
  'two_factor.disabled',
  'recovery_codes.renewed',
  /** Issue 44: a passkey added or removed (details: its name). */
  'passkey.added',
  'passkey.removed',
  /** Issue 44: an admin removed every second factor of the account (the actor names them). */
  'two_factor.reset',
  /** Issue 46: a renewal failed (Paddle retries), was paid after all, or was given up; a pause set or ended. */
  'payment.failed',
  'payment.recovered',
  'payment.lost',
  'subscription.paused',
  'subscription.pause_ended',
  /** Issue 46 item 9: the bank took a payment back (what it bought is revoked), or gave it back. */
  'purchase.chargeback',
  'purchase.chargeback_reversed',
  /** Issue 47: a staff member (the actor) opened a read-only view of the account, until `details.until`. */
  'account.viewed',
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

export const activityEntrySchema = z.object({
  id: z.string(),
  kind: z.enum(ACTIVITY_KINDS),
  /** The admin who acted, or null when the user or the portal itself did. */
  actorId: z.string().nullable(),
  actorEmail: z.string().nullable(),
  /** What the entry needs to be read: a method, an amount, a device name, roles before and after. */
  details: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;

/** The largest page of a timeline. */
export const MAX_ACTIVITY_PAGE = 100;

/** `GET /users/{id}/activity?skip&take`: newest first; 20 entries unless `take` says otherwise. */
export const activityQuerySchema = z.object({
  skip: z.coerce.number().int().min(0).max(1_000_000).default(0),
  take: z.coerce.number().int().min(1).max(MAX_ACTIVITY_PAGE).default(20),
});
export type ActivityQuery = z.infer<typeof activityQuerySchema>;

export const activityPageSchema = z.object({ data: z.array(activityEntrySchema), total: z.number().int() });
export type ActivityPage = z.infer<typeof activityPageSchema>;
