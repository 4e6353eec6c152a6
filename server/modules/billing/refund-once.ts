import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { claimRefundUse, usedRefundScopes } from './refund-uses-repo.js';

/**
 * Issue 46 item 1: the 14-day refund (spec section 9) is given once per customer and release, and once per
 * customer for the subscription. Buying again what was refunded is a purchase like any other, without a way
 * back: otherwise buy, use for 13 days, return, buy again, return again... loops without end. Refunds the
 * portal makes by itself (a duplicate purchase undone) are not the customer's and use nothing. An admin's
 * refund from the user page stays possible after the customer's own (support's judgement, logged with the
 * admin), and counts as the customer's when they had not used theirs.
 */

/** The scope of the subscription's refund, and of a release's. */
export const SUBSCRIPTION_REFUND = 'subscription';
export const releaseRefund = (release: string) => `release:${release}`;

/** Who asks for the refund: the customer, or an admin for them. */
export type RefundActor = 'customer' | 'admin';

/** The refund scopes the user has used. */
export function usedRefunds(db: Kysely<Database>, userId: string): Promise<Set<string>> {
  return usedRefundScopes(db, userId);
}

/**
 * Uses the refund of `scope`, in the transaction that records the refund: the customer's second one is
 * refused (409 REFUND_ALREADY_USED, rolling back everything the transaction did); an admin's goes ahead
 * and uses the customer's refund when it was still unused.
 */
export async function useRefund(
  trx: Kysely<Database>,
  use: { userId: string; scope: string; transactionId: string; actor: RefundActor; at: string },
): Promise<void> {
  const claimed = await claimRefundUse(trx, { userId: use.userId, scope: use.scope, transactionId: use.transactionId, usedBy: use.actor, at: use.at });
  if (!claimed && use.actor === 'customer') throw new AppError('REFUND_ALREADY_USED', 409);
}
