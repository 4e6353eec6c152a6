import type { Paddle } from '@paddle/paddle-node-sdk';
import { ApiError } from '@paddle/paddle-node-sdk';
import type { Kysely, Transaction } from 'kysely';
import { z } from 'zod';
import { callPaddle } from '../../billing/paddle.js';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { recordActivity } from '../activity/index.js';
import type { EventBus } from '../events/index.js';
import { enqueue, type JobHandler } from '../jobs/index.js';
import { revokeLicencesOfTransaction } from '../licensing/index.js';
import { insertChargeback, markChargebacksReversed } from './chargebacks-repo.js';
import type { ReleaseSeatsAboveLimit } from './purchased-licences.js';
import { releaseRefund, SUBSCRIPTION_REFUND } from './refund-once.js';
import { claimRefundUse } from './refund-uses-repo.js';
import { rememberSubscription } from './subscriptions-repo.js';
import { paymentOf } from './transactions-repo.js';

/*
 * Chargebacks (issue 46 item 9): the customer's bank took a payment back (Paddle's adjustment with action
 * `chargeback`). What the payment bought goes back with it, as with a refund, but without asking: a
 * perpetual licence is revoked and the devices above the new limit released (in the webhook's
 * transaction, through the devices' port); a subscription payment ends the subscription at once (a job
 * cancels it at Paddle, then releases the devices above the limit). The account is marked for support
 * (the admin grid and user page) and the timeline says what was taken back. The payment's 14-day refund
 * counts as used: the money went back once. A `chargeback_reverse` (the bank gave it back after a dispute)
 * lifts the mark; nothing is granted again by itself: support decides.
 */

export const CHARGEBACK_CANCEL_JOB = 'chargeback-cancel';

/** What a chargeback webhook needs besides its transaction: the time, and the devices' port. */
export interface ChargebackContext {
  trx: Transaction<Database>;
  now: string;
  releaseSeatsAboveLimit: ReleaseSeatsAboveLimit;
}

type AdjustmentData = { id: string; action: string; transaction_id: string; status: string; totals?: { total: string; currency_code: string } | null };

/** Applies a chargeback (or its reversal) adjustment; the payer, for their event stream, or null. */
export async function applyChargeback(context: ChargebackContext, data: AdjustmentData): Promise<string | null> {
  const { trx, now } = context;
  const payment = await paymentOf(trx, data.transaction_id);
  const userId = payment?.user_id ?? null;
  if (data.action === 'chargeback_reverse') {
    if (userId && (await markChargebacksReversed(trx, data.transaction_id, now))) {
      await recordActivity(trx, { key: `chargeback-reversed:${data.id}`, userId, kind: 'purchase.chargeback_reversed', details: { transactionId: data.transaction_id }, at: new Date(now) });
    }
    return userId;
  }
  if (data.action !== 'chargeback' || data.status === 'rejected') return userId;
  const amount = data.totals ? Number(data.totals.total) : Number(payment?.grand_total ?? 0);
  const recorded = await insertChargeback(trx, {
    adjustment_id: data.id,
    transaction_id: data.transaction_id,
    user_id: userId,
    subscription_id: payment?.subscription_id ?? null,
    amount,
    currency_code: data.totals?.currency_code ?? payment?.currency_code ?? 'USD',
    created_at: now,
    reversed_at: null,
  });
  if (!recorded || !userId || !payment) return userId;
  let released = 0;
  let releases: (string | null)[] = [];
  if (payment.subscription_id) {
    await enqueue(trx, new Date(now), { kind: CHARGEBACK_CANCEL_JOB, payload: { subscriptionId: payment.subscription_id, userId }, key: `chargeback-cancel:${payment.subscription_id}` });
    await claimRefundUse(trx, { userId, scope: SUBSCRIPTION_REFUND, transactionId: payment.id, usedBy: 'chargeback', at: now });
  } else {
    const revoked = await revokeLicencesOfTransaction(trx, payment.id, now, 'chargeback');
    releases = revoked.map((licence) => licence.release);
    released = revoked.length > 0 ? await context.releaseSeatsAboveLimit(trx, userId, new Date(now)) : 0;
    for (const release of releases) {
      if (release) await claimRefundUse(trx, { userId, scope: releaseRefund(release), transactionId: payment.id, usedBy: 'chargeback', at: now });
    }
  }
  await recordActivity(trx, {
    key: `chargeback:${data.id}`,
    userId,
    kind: 'purchase.chargeback',
    details: {
      transactionId: payment.id,
      subscriptionId: payment.subscription_id,
      releases: releases.filter((release): release is string => release !== null),
      seatsReleased: released,
      amount,
      currencyCode: data.totals?.currency_code ?? payment.currency_code,
    },
    at: new Date(now),
  });
  return userId;
}

const isCanceledAlready = (error: unknown) => error instanceof ApiError && error.code === 'subscription_update_when_canceled';

/**
 * The job that ends a charged-back subscription at Paddle at once (one already cancelled is read back),
 * then releases the devices above the user's new limit.
 */
export function chargebackCancelJob(deps: { db: Kysely<Database>; paddle: Paddle | null; clock: Clock; bus: EventBus; releaseSeatsAboveLimit: ReleaseSeatsAboveLimit }): JobHandler {
  return async (payload) => {
    const { subscriptionId, userId } = z.object({ subscriptionId: z.string(), userId: z.string() }).parse(payload);
    const subscription = await callPaddle(
      deps.paddle,
      async (paddle) => {
        try {
          return await paddle.subscriptions.cancel(subscriptionId, { effectiveFrom: 'immediately' });
        } catch (error) {
          if (isCanceledAlready(error)) return paddle.subscriptions.get(subscriptionId);
          throw error;
        }
      },
      'SUBSCRIPTION_NOT_FOUND',
    );
    await deps.db.transaction().execute(async (trx) => {
      await rememberSubscription(trx, subscription);
      await deps.releaseSeatsAboveLimit(trx, userId, deps.clock.now());
    });
    deps.bus.publish(userId, { type: 'subscription', id: subscriptionId });
  };
}
