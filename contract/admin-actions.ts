import { z } from 'zod';

/**
 * Issue 21: what an admin may do for a user from the user page, each the same service the user's own
 * action calls (the same rules), recorded on the user's timeline with the admin as its actor. (A file of
 * its own: the server reads these schemas; the app needs none of them, so its account pages never carry them.)
 */

/** `POST /users/{id}/devices/{deviceId}/release`: a device (one of the user's seats) by id. */
export const userDeviceParamsSchema = z.object({ id: z.uuid(), deviceId: z.uuid() });
/** `GET /users/{id}/transactions/{transactionId}/invoice`: one of the user's payments (Paddle's transaction id). */
export const userTransactionParamsSchema = z.object({ id: z.uuid(), transactionId: z.string().regex(/^txn_[a-z0-9]{1,40}$/) });
/** `POST /users/{id}/subscription/cancel`: at the end of the period, or (`refund`) now with every payment refunded, within the customer's window. */
export const adminCancelRequestSchema = z.object({ refund: z.boolean() }).strict();
/** `POST /users/{id}/sessions/end`: how many sessions ended. */
export const adminSessionsEndedSchema = z.object({ ended: z.number().int() });
/** `POST /users/{id}/verification/resend`. */
export const adminResendResponseSchema = z.object({ sent: z.literal(true) });
/** `POST /users/{id}/devices/{deviceId}/release`. */
export const adminReleaseResponseSchema = z.object({ released: z.literal(true) });

/**
 * `POST /users/{id}/view-as` (issue 47): a read-only session of the customer's account for the staff member
 * asking, ending at `expiresAt` (15 minutes at most). The web app opens it in a tab of its own.
 */
export const viewAsResponseSchema = z.object({ access_token: z.string(), expiresAt: z.string() });
export type ViewAsResponse = z.infer<typeof viewAsResponseSchema>;
