import type { Transaction } from 'kysely';
import { adjustmentDataSchema, subscriptionDataSchema, transactionDataSchema, type PaddleEvent } from '../../billing/webhooks.js';
import type { Database } from '../../db/schema.js';
import { grantPurchasedLicences } from '../licensing/index.js';
import type { Paddle } from '@paddle/paddle-node-sdk';
import { z } from 'zod';
import { enqueue, type JobHandler } from '../jobs/index.js';
import { callPaddle } from '../../billing/paddle.js';
import type { PortalEvent } from '../../../contract/events.js';
import type { Dialect } from '../../db/index.js';
import { type Report, queueSales } from '../analytics/index.js';
import { liveSubscriptions } from './ownership.js';
import { recordActivity } from '../activity/index.js';
import { applyAdjustment, auditPurchase, queueDuplicateCancellation, recordRefund } from './refunds.js';
import { lockCustomerRow, ownerOf } from './customers-repo.js';
import { hasSubscriptionBefore, isDuplicate, iso, markDuplicate, upsertSubscription } from './subscriptions-repo.js';
import { completedPaymentsOf, upsertTransaction } from './transactions-repo.js';
import { queueCardWarning } from './card-expiry.js';
import { applyChargeback } from './chargebacks.js';
import type { ReleaseSeatsAboveLimit } from './purchased-licences.js';
import { followRecovery } from './recoveries.js';
import { endRecoveriesOf } from './recoveries-repo.js';

type Sale = Extract<Report, { kind: 'sale' }>;

export const END_SECOND_TRIAL_JOB = 'end-second-trial';


/** The job that ends a second trial at Paddle (queued by the webhook that found it). */
export function endSecondTrialJob(paddle: Paddle | null): JobHandler {
  return async (payload) => {
    const { subscriptionId } = z.object({ subscriptionId: z.string() }).parse(payload);
    await callPaddle(paddle, (instance) => instance.subscriptions.activate(subscriptionId));
  };
}

export interface Applied {
  userId: string | null;
  event: PortalEvent;
  secondTrial?: boolean;
  sales?: Sale[];
}

export interface ApplyContext {
  trx: Transaction<Database>;
  dialect: Dialect;
  now: string;
  /** The devices' rule, through billing's port: a chargeback's revoked licence releases the devices above the new limit. */
  releaseSeatsAboveLimit: ReleaseSeatsAboveLimit;
}

/**
 * Holds the customer's row until the webhook's transaction ends, so two webhooks of one customer (two
 * checkouts completing at once) are applied one after the other and the second sees the first: the
 * duplicate check below is never a check-then-act race. SQLite has one writer at a time already.
 */
async function lockCustomer(context: ApplyContext, customerId: string): Promise<void> {
  if (context.dialect !== 'postgres') return;
  await lockCustomerRow(context.trx, customerId);
}


async function applySubscription(context: ApplyContext, event: PaddleEvent): Promise<Applied> {
  const data = subscriptionDataSchema.parse(event.data);
  await lockCustomer(context, data.customer_id);
  const item = data.items[0];
  const userId = await upsertSubscription(context.trx, {
    id: data.id,
    customerId: data.customer_id,
    status: data.status,
    priceId: item?.price.id ?? '',
    interval: data.billing_cycle.interval,
    currencyCode: data.currency_code,
    periodStartsAt: data.current_billing_period?.starts_at,
    periodEndsAt: data.current_billing_period?.ends_at,
    nextBilledAt: data.next_billed_at,
    trialEndsAt: item?.trial_dates?.ends_at,
    scheduledChange: data.scheduled_change
      ? { action: data.scheduled_change.action, effectiveAt: data.scheduled_change.effective_at, resumeAt: data.scheduled_change.resume_at }
      : null,
    canceledAt: data.canceled_at,
    pausedAt: data.paused_at,
    createdAt: data.created_at,
    asOf: event.occurred_at,
  });
  if (userId !== null) await settleSubscriptions(context, userId);
  // A cancelled subscription (Paddle gave up on a failed renewal, or it ended otherwise) leaves its open
  // payment recovery lost (issue 46 item 5).
  if (data.status === 'canceled') {
    for (const transactionId of await endRecoveriesOf(context.trx, data.id, 'lost', context.now)) {
      if (userId) {
        await recordActivity(context.trx, { key: `payment-lost:${transactionId}`, userId, kind: 'payment.lost', details: { transactionId, subscriptionId: data.id }, at: new Date(context.now) });
      }
    }
  }
  // Whether this one ends its trial at once depends on this subscription alone: it is kept (not a
  // duplicate, even when this webhook just undid another one) and was bought after an earlier one of
  // the user's. A duplicate bought later does not count: two trial tabs of a first-time buyer keep one trial.
  const secondTrial =
    event.event_type === 'subscription.created' &&
    data.status === 'trialing' &&
    userId !== null &&
    !(await isDuplicate(context.trx, data.id)) &&
    (await hasSubscriptionBefore(context.trx, userId, { id: data.id, createdAt: iso(data.created_at) as string }));
  return { userId, event: { type: 'subscription' as const, id: data.id }, secondTrial };
}

/**
 * The webhook's second check (issue 16): a user has at most one live subscription. When a checkout opened
 * before the first one was paid completes anyway, every live subscription but the earliest bought is a
 * duplicate: it is marked (so no page or entitlement counts it), its payments are recorded for a full
 * refund, and the audit trail says so; the refund runner cancels it at once and refunds. Deciding by the
 * order of purchase, not of arrival, gives the same answer however Paddle orders or repeats its webhooks.
 * Returns whether anything was marked.
 */
async function settleSubscriptions(context: ApplyContext, userId: string): Promise<boolean> {
  const live = await liveSubscriptions(context.trx, userId);
  const [keeper, ...duplicates] = live;
  if (!keeper || duplicates.length === 0) return false;
  for (const duplicate of duplicates) {
    await markDuplicate(context.trx, duplicate.id, keeper.id);
    await queueDuplicateCancellation(context.trx, duplicate.id, context.now);
    const refunded = await refundSubscriptionPayments(context, userId, duplicate.id);
    await auditPurchase(context.trx, {
      actorId: null,
      targetId: userId,
      action: 'purchase.duplicate_undone',
      details: { subscriptionId: duplicate.id, keptSubscriptionId: keeper.id, refundedTransactionIds: refunded },
      at: context.now,
    });
  }
  return true;
}

/** Records a full refund of every completed, paid transaction of a duplicate subscription; their ids. */
async function refundSubscriptionPayments(context: ApplyContext, userId: string, subscriptionId: string): Promise<string[]> {
  const payments = await completedPaymentsOf(context.trx, subscriptionId);
  const refunded: string[] = [];
  for (const payment of payments) {
    if (Number(payment.grand_total) <= 0) continue;
    const recorded = await recordRefund(context.trx, {
      transactionId: payment.id,
      userId,
      reason: 'duplicate',
      subscriptionId,
      amount: Number(payment.grand_total),
      currencyCode: payment.currency_code,
      at: context.now,
    });
    if (recorded) refunded.push(payment.id);
  }
  return refunded;
}

/** Statuses of a transaction that is a payment (or an attempt at one), not a checkout still open. */
const PAYMENT_STATUSES = new Set(['billed', 'paid', 'completed', 'past_due', 'canceled']);

/**
 * Records a payment: what was bought, for how much, when; newer descriptions win, as for subscriptions.
 * A completed payment is then matched by exactly one grant or one refund: a one-off purchase grants its
 * licences unless the user holds that release already (then it is refunded, and nothing is granted); a
 * payment of a subscription being undone as a duplicate is refunded.
 */
async function applyTransaction(context: ApplyContext, event: PaddleEvent): Promise<Applied | null> {
  const db = context.trx;
  const data = transactionDataSchema.parse(event.data);
  if (!data.customer_id || !PAYMENT_STATUSES.has(data.status)) return null;
  await lockCustomer(context, data.customer_id);
  const userId = await ownerOf(db, data.customer_id);
  const totals = data.details.totals;
  // The card it was captured on (issue 46 item 6): the last captured attempt's, when it was a card.
  const card = [...(data.payments ?? [])].reverse().find((payment) => payment.status === 'captured' && payment.method_details?.card)?.method_details?.card ?? null;
  const row = {
    id: data.id,
    customer_id: data.customer_id,
    user_id: userId,
    subscription_id: data.subscription_id ?? null,
    status: data.status,
    origin: data.origin,
    currency_code: data.currency_code,
    subtotal: Number(totals.subtotal),
    discount: Number(totals.discount),
    tax: Number(totals.tax),
    grand_total: Number(totals.grand_total),
    billed_at: iso(data.billed_at),
    items: JSON.stringify(data.items.map((item) => ({ priceId: item.price.id, productId: item.price.product_id, quantity: item.quantity }))),
    created_at: iso(data.created_at) as string,
    last_event_at: new Date(event.occurred_at).toISOString(),
    card_last4: card?.last4 ?? null,
    card_expiry_month: card?.expiry_month ?? null,
    card_expiry_year: card?.expiry_year ?? null,
  };
  await upsertTransaction(db, row);
  // A renewal that failed, was retried, paid or given up (issue 46 item 5).
  await followRecovery(db, data, userId, context.now);
  const sales: Sale[] = [];
  let undo = false;
  const at = new Date(iso(data.billed_at) ?? event.occurred_at);
  const paid = Number(totals.grand_total);
  if (data.status === 'completed' && userId) {
    // Once per transaction, however often and in whatever order Paddle delivers its events.
    await recordActivity(db, {
      key: `purchase:${data.id}`,
      userId,
      kind: 'purchase.completed',
      details: { transactionId: data.id, subscriptionId: data.subscription_id ?? null, origin: data.origin, amount: paid, currencyCode: data.currency_code },
      at,
    });
  }
  if (data.status === 'completed' && data.subscription_id && userId && card && !(await isDuplicate(db, data.subscription_id))) {
    // The card the subscription is charged on from now on: warned of 30 days before it expires (issue 46 item 6).
    await queueCardWarning(db, { userId, subscriptionId: data.subscription_id, card: { last4: card.last4, month: card.expiry_month, year: card.expiry_year }, now: new Date(context.now) });
  }
  if (data.status === 'completed' && data.subscription_id && userId) {
    if (await isDuplicate(db, data.subscription_id)) {
      // A payment of a subscription being undone (it may arrive after the subscription's own webhook).
      if (paid > 0) {
        undo = await recordRefund(db, {
          transactionId: data.id,
          userId,
          reason: 'duplicate',
          subscriptionId: data.subscription_id,
          amount: paid,
          currencyCode: data.currency_code,
          at: context.now,
        });
      }
    } else {
      sales.push({ kind: 'sale', userId, id: data.id, channel: 'subscription', at });
    }
  }
  if (data.status === 'completed' && !data.subscription_id) {
    // A completed one-off purchase grants a perpetual licence for each product that names its release.
    const lines = (data.details.line_items ?? []).map((line) => {
      const release = line.product?.custom_data?.shapelabRelease;
      return { priceId: line.price_id, productId: line.product?.id ?? '', release: typeof release === 'string' && release ? release : null };
    });
    const outcome = await grantPurchasedLicences(db, { userId, transactionId: data.id, grantedAt: at.toISOString(), lines });
    const duplicateRelease = outcome.alreadyOwned[0];
    if (userId && duplicateRelease !== undefined && outcome.granted.length === 0 && paid > 0) {
      // The release was held already (another checkout completed first, or a coupon): no second
      // licence; the payment is refunded in full.
      undo = await recordRefund(db, {
        transactionId: data.id,
        userId,
        reason: 'duplicate',
        release: duplicateRelease,
        amount: paid,
        currencyCode: data.currency_code,
        at: context.now,
      });
      if (undo) {
        await auditPurchase(db, {
          actorId: null,
          targetId: userId,
          action: 'purchase.duplicate_undone',
          details: { transactionId: data.id, release: duplicateRelease, amount: paid, currencyCode: data.currency_code },
          at: context.now,
        });
      }
    }
    // One sale per release granted (counted once however often Paddle repeats the event).
    for (const line of lines) {
      if (userId && line.release && outcome.granted.some((grant) => grant.productId === line.productId)) {
        sales.push({ kind: 'sale', userId, id: `${data.id}:${line.productId}`, channel: line.release === '2024' ? 'perpetual-2024' : 'direct', at });
      }
    }
  }
  return { userId, event: { type: 'transaction' as const, id: data.id }, sales };
}

/**
 * Applies a stored webhook event in its transaction (webhook-intake.ts stored it once by `event_id`):
 * what changed and for whom, for the event stream; null for an event the portal does not act on.
 */
export async function applyEvent(context: ApplyContext, event: PaddleEvent): Promise<Applied | null> {
  if (event.event_type.startsWith('subscription.')) {
    const applied = await applySubscription(context, event);
    // The trial is for a first subscription. Checkouts for returning subscribers are created without
    // one (checkout.ts); one that got a trial anyway (a checkout opened around the portal) ends now.
    if (applied?.secondTrial) {
      await enqueue(context.trx, new Date(context.now), { kind: END_SECOND_TRIAL_JOB, payload: { subscriptionId: applied.event.id }, key: `end-trial:${applied.event.id}` });
    }
    return applied;
  }
  if (event.event_type.startsWith('transaction.')) {
    const applied = await applyTransaction(context, event);
    if (applied?.sales?.length) await queueSales(context.trx, new Date(context.now), applied.sales);
    return applied;
  }
  if (event.event_type.startsWith('adjustment.')) {
    const data = adjustmentDataSchema.parse(event.data);
    // A refund follows the portal's refund; a chargeback (or its reversal) takes back what was bought (issue 46 item 9).
    const userId = data.action.startsWith('chargeback') ? await applyChargeback(context, data) : await applyAdjustment(context.trx, data, context.now);
    return { userId, event: { type: 'transaction', id: data.transaction_id } };
  }
  return null;
}
