import type { Kysely } from 'kysely';
import type { Subscription } from '../../../contract/subscription.js';
import { callPaddle } from '../../billing/paddle.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { StaffActor } from '../activity/index.js';
import { type Sessions } from '../auth/index.js';
import { cancelSubscription, isPaymentOf, type ActionDeps } from '../billing/index.js';
import { releaseSeat, type DeviceDeps } from '../devices/index.js';
import { accountExists, resendVerificationFor, type RegistrationDeps } from '../users/index.js';

/**
 * What support does for a customer from the admin user page (issue 21). Each action is the service the
 * customer's own action calls (ending sessions, cancelling with the 14-day refund, releasing a device),
 * so an admin has exactly the customer's rules; the timeline names the admin as the entry's actor.
 * Roles are changed through `PATCH /users/{id}` (./admin.ts, changeRoles).
 */
export interface AdminActionDeps {
  db: Kysely<Database>;
  sessions: Sessions;
  registration: RegistrationDeps;
  billing: ActionDeps;
  devices: DeviceDeps;
}

/** The staff member acting (as the audit log names them), and the session they act from. */
export interface Actor {
  staff: StaffActor;
  sessionId: string;
}

async function assertUserExists(db: Kysely<Database>, userId: string): Promise<void> {
  if (!(await accountExists(db, userId))) throw new AppError('USER_NOT_FOUND', 404);
}

/**
 * `POST /users/{id}/sessions/end`: every live session of the user ends, as the user's own "sign out
 * everywhere" does: their tokens are refused from the next request, their offline tokens revoked, their
 * open event streams closed. An admin on their own page keeps the session they are using.
 */
export async function endSessionsOf(deps: AdminActionDeps, actor: Actor, userId: string): Promise<{ ended: number }> {
  await assertUserExists(deps.db, userId);
  const keep = userId === actor.staff.id ? actor.sessionId : null;
  return { ended: await deps.sessions.endAllExcept(userId, keep, 'ended-by-admin', actor.staff) };
}

/** `POST /users/{id}/verification/resend`: a new code and link for an unverified account (the public resend's limit). */
export async function resendVerificationOf(deps: AdminActionDeps, actor: Actor, userId: string): Promise<{ sent: true }> {
  return resendVerificationFor(deps.registration, actor.staff, userId);
}

/**
 * `POST /users/{id}/subscription/cancel`: the customer's cancel (./billing/subscription-actions.ts):
 * at the end of the period unless the renewal lock holds, or with `refund` only within 14 days of the
 * first payment (REFUND_WINDOW_CLOSED after), every payment refunded once however often it is asked.
 */
export async function cancelSubscriptionOf(deps: AdminActionDeps, actor: Actor, userId: string, refund: boolean): Promise<Subscription> {
  await assertUserExists(deps.db, userId);
  return cancelSubscription(deps.billing, { id: userId }, { refund, staff: actor.staff });
}

/** `POST /users/{id}/devices/{deviceId}/release`: the device manager's release; the seat is free and the device's token dies at once. */
export async function releaseDeviceOf(deps: AdminActionDeps, actor: Actor, userId: string, deviceId: string): Promise<{ released: true }> {
  await assertUserExists(deps.db, userId);
  try {
    return await releaseSeat(deps.devices, userId, deviceId, actor.staff);
  } catch (error) {
    // The customer hears "not yours"; support hears that this user has no such device (any more).
    if (error instanceof AppError && error.messageKey === 'SEAT_NOT_FOUND') throw new AppError('DEVICE_NOT_FOUND', 404, { cause: error });
    throw error;
  }
}

/**
 * `GET /users/{id}/transactions/{transactionId}/invoice`: the invoice PDF of one of the user's payments,
 * Paddle's short-lived link, asked for when support clicks (as the customer's own invoice link is). The
 * payment must be this user's in the portal's books; one Paddle has not invoiced answers INVOICE_NOT_FOUND.
 */
export async function invoiceLinkOf(deps: AdminActionDeps, userId: string, transactionId: string): Promise<{ url: string }> {
  await assertUserExists(deps.db, userId);
  if (!(await isPaymentOf(deps.db, userId, transactionId))) throw new AppError('INVOICE_NOT_FOUND', 404);
  const pdf = await callPaddle(deps.billing.paddle, (paddle) => paddle.transactions.getInvoicePDF(transactionId, { disposition: 'attachment' }), 'INVOICE_NOT_FOUND');
  return { url: pdf.url };
}
