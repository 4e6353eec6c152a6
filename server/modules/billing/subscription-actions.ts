import type { Paddle, Subscription as PaddleSubscription, Transaction } from '@paddle/paddle-node-sdk';
import type { Kysely } from 'kysely';
import type { CancelReason, Invoice, PaymentMethod, PaymentStatus, PlanChangePreview, Subscription } from '../../../contract/subscription.js';
import { callPaddle } from '../../billing/paddle.js';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { type UserWithRoles } from '../users/index.js';
import { catalogueText, type Catalogue } from './catalogue.js';
import { customerIdFor } from './customers.js';
import { auditPurchase, recordRefund, type RefundRunner } from './refunds.js';
import { recordActivity, type StaffActor } from '../activity/index.js';
import { type EventBus } from '../events/index.js';
import { refundOffer, subscriptionOf } from './subscription-read.js';
import { refundIdsOf } from './refunds-repo.js';
import { recordCancellation } from './cancellations-repo.js';
import { SUBSCRIPTION_REFUND, useRefund, usedRefunds } from './refund-once.js';
import { rememberSubscription } from './subscriptions-repo.js';
import { completedPaymentsOf, paymentsWithRefunds } from './transactions-repo.js';

/** Spec section 9: a subscription cannot be changed in the 30 minutes before it renews. */
export const RENEWAL_LOCK_MS = 30 * 60 * 1000;

export interface ActionDeps {
  db: Kysely<Database>;
  paddle: Paddle | null;
  clock: Clock;
  refunds: RefundRunner;
  /** Told when the subscription changed here, so every instance forgets what it keeps of it (issue 45). */
  bus: Pick<EventBus, 'announce'>;
}

/**
 * Keeps Paddle's answer to an action (the webhook that follows then changes nothing, and publishes
 * nothing new) and has every instance forget what it keeps of what the user holds: `/users/me`'s
 * subscription and the entitlement the home and the desktop answer.
 */
async function remember(deps: ActionDeps, subscription: PaddleSubscription): Promise<void> {
  const userId = await rememberSubscription(deps.db, subscription);
  if (userId) deps.bus.announce({ kind: 'holdings-changed', userId });
}

async function current(deps: ActionDeps, user: Pick<UserWithRoles, 'id'>): Promise<Subscription> {
  const subscription = await subscriptionOf(deps.db, user.id, deps.clock.now());
  if (!subscription) throw new AppError('SUBSCRIPTION_NOT_FOUND', 404);
  return subscription;
}

/** The moment the subscription next renews (or would, for one whose cancellation or pause is being undone). */
function renewsAt(subscription: Subscription): Date | null {
  const change = subscription.scheduledChange;
  const at = subscription.nextBilledAt ?? (change?.action === 'cancel' || change?.action === 'pause' ? change.effectiveAt : null);
  return at ? new Date(at) : null;
}

function assertNotLocked(subscription: Subscription, now: Date): void {
  const renews = renewsAt(subscription);
  if (renews && renews.getTime() > now.getTime() && renews.getTime() - now.getTime() < RENEWAL_LOCK_MS) {
    throw new AppError('SUBSCRIPTION_LOCKED', 409);
  }
}

/** Why the customer cancels (issue 46 item 8): one of the dialog's choices and their own words, both optional. */
export interface CancelWhy {
  reason?: CancelReason | undefined;
  comment?: string | undefined;
}

/**
 * Cancel at the end of the period: it stays active until then (spec section 4) and can be continued. A
 * scheduled pause gives way to the cancellation; a paused subscription (which runs no period) and an
 * overdue one (whose period was not paid; Paddle stops retrying) end at once.
 * With `refund`, within 14 days of the first payment (spec section 9) and once per customer (issue 46 item
 * 1): it ends now and every payment is refunded in full. The refunds are recorded first (with the audit
 * entry, in one transaction), then the refund runner cancels at Paddle and refunds at once; a failure
 * there is retried, never forgotten. The customer's own cancellation and staff's from the user page
 * (issue 21, `staff` them, issue 47) are this one function: the same window, the same lock, the same
 * refunds; only staff may refund after the customer's one refund was used. The reason is kept for analytics.
 */
export async function cancelSubscription(
  deps: ActionDeps,
  user: Pick<UserWithRoles, 'id'>,
  options: { refund?: boolean; staff?: StaffActor } & CancelWhy = {},
): Promise<Subscription> {
  const subscription = await current(deps, user);
  if (subscription.status === 'canceled') throw new AppError('SUBSCRIPTION_NOT_FOUND', 404);
  const staff = options.staff ?? null;
  const actorId = staff?.id ?? null;
  const why = { reason: options.reason ?? null, comment: options.comment?.trim() ? options.comment.trim() : null };
  if (options.refund) return cancelWithRefund(deps, user, subscription, staff, why);
  // A paused subscription runs no period, and an overdue one's period was not paid: either ends now.
  const endsNow = subscription.status === 'paused' || subscription.status === 'past_due';
  if (!endsNow) assertNotLocked(subscription, deps.clock.now());
  const updated = await callPaddle(
    deps.paddle,
    async (paddle) => {
      if (subscription.scheduledChange?.action === 'pause') await paddle.subscriptions.update(subscription.id, { scheduledChange: null });
      return paddle.subscriptions.cancel(subscription.id, { effectiveFrom: endsNow ? 'immediately' : 'next_billing_period' });
    },
    'SUBSCRIPTION_NOT_FOUND',
  );
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await rememberSubscription(trx, updated);
    await recordCancellation(trx, { userId: user.id, subscriptionId: subscription.id, ...why, refund: false, actorId, at: now.toISOString() });
    await recordActivity(trx, {
      userId: user.id,
      staff,
      kind: 'subscription.cancelled',
      details: { subscriptionId: subscription.id, refund: false, endsAt: updated.scheduledChange?.effectiveAt ?? updated.canceledAt ?? null, reason: why.reason },
      at: now,
    });
  });
  // What /users/me and the entitlements keep of the subscription is forgotten on every instance (issue 45).
  deps.bus.announce({ kind: 'holdings-changed', userId: user.id });
  return (await subscriptionOf(deps.db, user.id, deps.clock.now())) as Subscription;
}

async function cancelWithRefund(
  deps: ActionDeps,
  user: Pick<UserWithRoles, 'id'>,
  subscription: Subscription,
  staff: StaffActor | null,
  why: { reason: CancelReason | null; comment: string | null },
): Promise<Subscription> {
  const now = deps.clock.now();
  const actorId = staff?.id ?? null;
  const actor = actorId === null || actorId === user.id ? 'customer' : 'admin';
  const recorded = await deps.db.transaction().execute(async (trx) => {
    // The customer's second refund is named as such, even when its window has closed too.
    if (actor === 'customer' && (await usedRefunds(trx, user.id)).has(SUBSCRIPTION_REFUND)) throw new AppError('REFUND_ALREADY_USED', 409);
    // Read again inside the transaction: a second click (or tab) finds the refunds recorded already.
    const offer = await refundOffer(trx, subscription.id, now);
    if (!offer) throw new AppError('REFUND_WINDOW_CLOSED', 409);
    const payments = await completedPaymentsOf(trx, subscription.id, { paid: true, unrefunded: true });
    const [first] = payments;
    if (!first) throw new AppError('REFUND_WINDOW_CLOSED', 409);
    // The one refund per customer, by the primary key of refund_uses: of two requests at once (two tabs, a
    // retry) the second waits for the first and is refused; nothing of it is kept.
    await useRefund(trx, { userId: user.id, scope: SUBSCRIPTION_REFUND, transactionId: first.id, actor, at: now.toISOString() });
    const ids: string[] = [];
    for (const payment of payments) {
      const added = await recordRefund(trx, {
        transactionId: payment.id,
        userId: user.id,
        reason: 'customer',
        subscriptionId: subscription.id,
        amount: Number(payment.grand_total),
        currencyCode: payment.currency_code,
        at: now.toISOString(),
      }, { heldForRequest: true });
      if (added) ids.push(payment.id);
    }
    // Two requests at once (a double click, the customer and an admin) on PostgreSQL both read the offer;
    // the unique refund per payment lets one record them, and the other finds nothing left to refund.
    if (ids.length === 0) throw new AppError('REFUND_WINDOW_CLOSED', 409);
    await auditPurchase(trx, {
      actorId: staff?.id ?? user.id,
      targetId: user.id,
      action: 'purchase.refunded',
      details: { subscriptionId: subscription.id, refundedTransactionIds: ids, amount: offer.amount.amount, currencyCode: offer.amount.currencyCode },
      at: now.toISOString(),
    });
    await recordCancellation(trx, { userId: user.id, subscriptionId: subscription.id, ...why, refund: true, actorId, at: now.toISOString() });
    await recordActivity(trx, {
      userId: user.id,
      staff,
      kind: 'subscription.cancelled',
      auditAction: 'subscription.refunded',
      details: { subscriptionId: subscription.id, refund: true, endsAt: now.toISOString(), amount: offer.amount.amount, currencyCode: offer.amount.currencyCode, reason: why.reason },
      at: now,
    });
    return refundIdsOf(trx, ids);
  });
  for (const { id } of recorded) await deps.refunds.refundNow(id);
  return (await subscriptionOf(deps.db, user.id, deps.clock.now())) as Subscription;
}

/** Continue: the scheduled cancellation is removed; billing resumes at the end of the period. */
export async function continueSubscription(deps: ActionDeps, user: UserWithRoles): Promise<Subscription> {
  const subscription = await current(deps, user);
  if (subscription.scheduledChange?.action !== 'cancel') return subscription;
  assertNotLocked(subscription, deps.clock.now());
  const updated = await callPaddle(deps.paddle, (paddle) => paddle.subscriptions.update(subscription.id, { scheduledChange: null }), 'SUBSCRIPTION_NOT_FOUND');
  await remember(deps, updated);
  await recordActivity(deps.db, { userId: user.id, kind: 'subscription.resumed', details: { subscriptionId: subscription.id }, at: deps.clock.now() });
  return (await subscriptionOf(deps.db, user.id, deps.clock.now())) as Subscription;
}

/** The longest pause a customer can ask for: a year from when it starts. */
const MAX_PAUSE_MS = 366 * 24 * 60 * 60 * 1000;

/**
 * `POST /subscription/pause` (issue 46 item 7): Paddle's scheduled pause. The subscription runs to the end
 * of the period it is paid for, then pauses: nothing is billed and the desktop entitlement ends (paused is
 * not a paid status) until `resumeAt` or until the customer resumes, when a new billing period starts and
 * is charged. Not for a trial (it ends or is charged; PAUSE_NOT_IN_TRIAL), not while a payment is overdue
 * (Paddle would forgive it; SUBSCRIPTION_PAST_DUE), not beside a cancellation or another pause, not in the
 * 30 minutes before a renewal.
 */
export async function pauseSubscription(deps: ActionDeps, user: UserWithRoles, resumeAt: string | undefined): Promise<Subscription> {
  const subscription = await current(deps, user);
  if (subscription.status === 'canceled') throw new AppError('SUBSCRIPTION_NOT_FOUND', 404);
  if (subscription.status === 'trialing') throw new AppError('PAUSE_NOT_IN_TRIAL', 409);
  if (subscription.status === 'past_due') throw new AppError('SUBSCRIPTION_PAST_DUE', 409);
  if (subscription.scheduledChange !== null || subscription.status === 'paused') throw new AppError('SUBSCRIPTION_CHANGE_PENDING', 409);
  const now = deps.clock.now();
  assertNotLocked(subscription, now);
  const startsAt = subscription.currentPeriod?.endsAt ?? subscription.nextBilledAt;
  if (!startsAt) throw new AppError('SUBSCRIPTION_NOT_FOUND', 404);
  if (resumeAt !== undefined) {
    const resume = Date.parse(resumeAt);
    if (!(resume > Date.parse(startsAt)) || resume - Date.parse(startsAt) > MAX_PAUSE_MS) throw new AppError('PAUSE_RESUME_DATE_INVALID', 400);
  }
  const updated = await callPaddle(
    deps.paddle,
    (paddle) => paddle.subscriptions.pause(subscription.id, { effectiveFrom: 'next_billing_period', ...(resumeAt ? { resumeAt: new Date(resumeAt).toISOString() } : {}) }),
    'SUBSCRIPTION_NOT_FOUND',
  );
  await deps.db.transaction().execute(async (trx) => {
    await rememberSubscription(trx, updated);
    await recordActivity(trx, { userId: user.id, kind: 'subscription.paused', details: { subscriptionId: subscription.id, startsAt, resumesAt: resumeAt ?? null }, at: now });
  });
  // What /users/me and the entitlements keep of the subscription is forgotten on every instance (issue 45).
  deps.bus.announce({ kind: 'holdings-changed', userId: user.id });
  return (await subscriptionOf(deps.db, user.id, deps.clock.now())) as Subscription;
}

/**
 * `POST /subscription/resume` (issue 46 item 7): a scheduled pause is withdrawn (the subscription renews as
 * before); a running pause ends now, and Paddle starts and charges a new billing period. Without a pause,
 * SUBSCRIPTION_NOT_PAUSED.
 */
export async function resumeSubscription(deps: ActionDeps, user: UserWithRoles): Promise<Subscription> {
  const subscription = await current(deps, user);
  const scheduled = subscription.scheduledChange?.action === 'pause';
  if (!scheduled && subscription.status !== 'paused') throw new AppError('SUBSCRIPTION_NOT_PAUSED', 409);
  const now = deps.clock.now();
  if (scheduled) assertNotLocked(subscription, now);
  const updated = await callPaddle(
    deps.paddle,
    (paddle) => (scheduled ? paddle.subscriptions.update(subscription.id, { scheduledChange: null }) : paddle.subscriptions.resume(subscription.id, { effectiveFrom: 'immediately' })),
    'SUBSCRIPTION_NOT_FOUND',
  );
  await deps.db.transaction().execute(async (trx) => {
    await rememberSubscription(trx, updated);
    await recordActivity(trx, { userId: user.id, kind: 'subscription.pause_ended', details: { subscriptionId: subscription.id, scheduled }, at: now });
  });
  // What /users/me and the entitlements keep of the subscription is forgotten on every instance (issue 45).
  deps.bus.announce({ kind: 'holdings-changed', userId: user.id });
  return (await subscriptionOf(deps.db, user.id, deps.clock.now())) as Subscription;
}

/** The subscription's plan for `interval`, checked: not the current one, not while a cancellation or pause is pending or running. */
async function target(deps: ActionDeps, catalogue: Catalogue, subscription: Subscription, interval: 'month' | 'year') {
  if (subscription.status === 'canceled') throw new AppError('SUBSCRIPTION_NOT_FOUND', 404);
  if (subscription.interval === interval) throw new AppError('VALIDATION_FAILED', 400);
  if (subscription.scheduledChange !== null || subscription.status === 'paused') throw new AppError('SUBSCRIPTION_CHANGE_PENDING', 409);
  assertNotLocked(subscription, deps.clock.now());
  const plan = (await catalogue.plans()).find((candidate) => candidate.interval === interval);
  if (!plan) throw new AppError('PRICE_NOT_FOUND', 404);
  return plan;
}

/**
 * A switch monthly<->yearly as Paddle makes it: `prorated_immediately`, so a new billing cycle starts
 * now and the charge is the new plan's full price less the unused time of the current one; no discount
 * is passed, so the new plan's first-purchase discount does not apply; a failed payment changes nothing.
 */
const changeRequest = (priceId: string) => ({
  items: [{ priceId, quantity: 1 }],
  prorationBillingMode: 'prorated_immediately' as const,
  onPaymentFailure: 'prevent_change' as const,
});

const minor = (amount: string | null | undefined) => Number.parseInt(amount ?? '0', 10);

/** What the switch will charge, with tax, and when (spec section 4's confirmation). */
export async function previewPlanChange(deps: ActionDeps, catalogue: Catalogue, user: UserWithRoles, interval: 'month' | 'year'): Promise<PlanChangePreview> {
  const subscription = await current(deps, user);
  const plan = await target(deps, catalogue, subscription, interval);
  const preview = await callPaddle(deps.paddle, (paddle) => paddle.subscriptions.previewUpdate(subscription.id, changeRequest(plan.id)), 'SUBSCRIPTION_NOT_FOUND');
  // While trialing nothing is charged now: the new plan is first billed when the trial ends.
  const charged = preview.immediateTransaction ?? preview.nextTransaction;
  if (!charged) throw new AppError('PRORATION_NOT_CHARGEABLE', 409);
  const currencyCode = preview.currencyCode;
  const totals = charged.details.totals;
  return {
    priceId: plan.id,
    interval,
    chargedAt: preview.immediateTransaction ? deps.clock.now().toISOString() : charged.billingPeriod.startsAt,
    charge: { amount: minor(totals.grandTotal), currencyCode },
    tax: { amount: minor(totals.tax), currencyCode },
    credit: { amount: preview.immediateTransaction ? minor(preview.updateSummary?.credit.amount) : 0, currencyCode },
    newPeriod: { startsAt: charged.billingPeriod.startsAt, endsAt: charged.billingPeriod.endsAt },
  };
}

/** Makes the switch the user confirmed; the charge is what the preview showed for the same minute. */
export async function changePlan(deps: ActionDeps, catalogue: Catalogue, user: UserWithRoles, interval: 'month' | 'year'): Promise<Subscription> {
  const subscription = await current(deps, user);
  const plan = await target(deps, catalogue, subscription, interval);
  const updated = await callPaddle(deps.paddle, (paddle) => paddle.subscriptions.update(subscription.id, changeRequest(plan.id)), 'SUBSCRIPTION_NOT_FOUND');
  await remember(deps, updated);
  return (await subscriptionOf(deps.db, user.id, deps.clock.now())) as Subscription;
}

/** The transaction the provider's checkout opens to take a new card (or PayPal) for the subscription. */
export async function paymentMethodTransaction(deps: ActionDeps, user: UserWithRoles): Promise<{ transactionId: string }> {
  const subscription = await current(deps, user);
  if (subscription.status === 'canceled') throw new AppError('SUBSCRIPTION_NOT_FOUND', 404);
  const transaction = await callPaddle(deps.paddle, (paddle) => paddle.subscriptions.getPaymentMethodChangeTransaction(subscription.id), 'SUBSCRIPTION_NOT_FOUND');
  return { transactionId: transaction.id };
}

/**
 * How the subscription is paid: the method of its latest captured payment, or null before the first, and
 * null without a subscription (issue 48 item 10): a read of what there is answers "nothing" as
 * `GET /subscription/user` does, where a 404 was logged in the console of every subscription page a user
 * without one opened (the page asks for both at once). Acting on a missing subscription still answers 404.
 */
export async function paymentMethodOf(deps: ActionDeps, user: UserWithRoles): Promise<PaymentMethod | null> {
  const subscription = await subscriptionOf(deps.db, user.id, deps.clock.now());
  if (!subscription) return null;
  const transactions = await callPaddle(deps.paddle, (paddle) =>
    all(paddle.transactions.list({ subscriptionId: [subscription.id], status: ['completed', 'paid'] })),
  );
  const newestFirst = transactions.sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt));
  for (const transaction of newestFirst) {
    const captured = [...(transaction.payments ?? [])].reverse().find((payment) => payment.status === 'captured' && payment.methodDetails);
    const details = captured?.methodDetails;
    if (!details) continue;
    return {
      type: details.type,
      card: details.card ? { brand: details.card.type, last4: details.card.last4, expiryMonth: details.card.expiryMonth, expiryYear: details.card.expiryYear } : null,
    };
  }
  return null;
}

/**
 * `GET /subscription/approve/{id}` after the PayPal return: the subscription is read from Paddle at once
 * (not left to the webhook) so the page that follows shows it. Only the subscription's owner may.
 */
export async function approveSubscription(deps: ActionDeps, user: UserWithRoles, subscriptionId: string): Promise<Subscription> {
  const customerId = await customerIdFor(deps, user);
  const subscription = await callPaddle(deps.paddle, (paddle) => paddle.subscriptions.get(subscriptionId), 'SUBSCRIPTION_NOT_FOUND');
  // Someone else's subscription answers exactly like a missing one.
  if (subscription.customerId !== customerId) throw new AppError('SUBSCRIPTION_NOT_FOUND', 404);
  await remember(deps, subscription);
  const stored = await subscriptionOf(deps.db, user.id, deps.clock.now());
  if (!stored) throw new AppError('SUBSCRIPTION_NOT_FOUND', 404);
  return stored;
}

async function all<T>(collection: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of collection) items.push(item);
  return items;
}

/**
 * `GET /subscription/billing/invoice`: the user's billed transactions, newest first, each with what it
 * bought (plan or release, from the product's custom_data), its refund and its invoice link.
 */
export async function invoices(deps: ActionDeps, user: UserWithRoles): Promise<Invoice[]> {
  const customerId = await customerIdFor(deps, user);
  const transactions = await callPaddle(deps.paddle, (paddle) =>
    all(paddle.transactions.list({ customerId: [customerId], status: ['completed', 'billed', 'past_due'] })),
  );
  const refunds = await refundsOf(deps, transactions.map((transaction) => transaction.id));
  return transactions.map((transaction) => ({
    id: transaction.id,
    status: transaction.status,
    paymentStatus: paymentStatusOf(transaction, refunds.get(transaction.id) ?? null),
    billedAt: transaction.billedAt,
    invoiceNumber: transaction.invoiceNumber,
    total: { amount: Number.parseInt(transaction.details?.totals?.grandTotal ?? '0', 10), currencyCode: transaction.currencyCode },
    tax: { amount: Number.parseInt(transaction.details?.totals?.tax ?? '0', 10), currencyCode: transaction.currencyCode },
    items: transaction.items.map((item) => {
      const line = transaction.details?.lineItems.find((candidate) => candidate.priceId === item.price?.id);
      const custom = (line?.product?.customData ?? null) as { kind?: unknown; shapelabRelease?: unknown } | null;
      const interval = item.price?.billingCycle?.interval;
      const kind = custom?.kind === 'subscription' || custom?.kind === 'perpetual' ? custom.kind : item.price?.billingCycle ? 'subscription' : null;
      return {
        priceId: item.price?.id ?? null,
        name: line?.product?.name ?? item.price?.name ?? item.price?.description ?? '',
        kind,
        release: typeof custom?.shapelabRelease === 'string' ? custom.shapelabRelease : null,
        interval: interval === 'month' || interval === 'year' ? interval : null,
        // A plan is named by its price (Monthly), as on choose-plan; anything else by its product.
        i18n: catalogueText(line?.product ?? { name: item.price?.name ?? item.price?.description ?? '', description: null, customData: null }, kind === 'subscription' && item.price ? item.price : null),
      };
    }),
    refund: refunds.get(transaction.id) ?? null,
    invoiceUrl: `/api/subscription/billing/invoice/${transaction.id}`,
  }));
}

/**
 * What became of a payment (issue 20: a status a bookkeeper can use). A failed renewal is past due; a
 * $0.00 transaction charged nothing; Paddle's adjusted totals say how much of the rest was refunded (also
 * a refund made in Paddle's dashboard), and the portal's own approved refund says so before Paddle's
 * totals arrive. A refund still pending leaves the payment paid: the money has not gone back yet.
 */
export function paymentStatusOf(transaction: Transaction, refund: Invoice['refund']): PaymentStatus {
  if (transaction.status === 'past_due') return 'past_due';
  const total = Number.parseInt(transaction.details?.totals?.grandTotal ?? '0', 10);
  if (total <= 0) return 'no_charge';
  const adjusted = transaction.details?.adjustedTotals?.grandTotal;
  const kept = adjusted === undefined || adjusted === null ? total : Number.parseInt(adjusted, 10);
  const refunded = Math.max(total - kept, refund?.status === 'approved' ? refund.amount : 0);
  if (refunded <= 0) return 'paid';
  return refunded >= total ? 'refunded' : 'partially_refunded';
}

/** The portal's refunds of these payments; one refunded in Paddle's dashboard counts as the customer's. */
async function refundsOf(deps: ActionDeps, transactionIds: string[]): Promise<Map<string, Invoice['refund']>> {
  const found = new Map<string, Invoice['refund']>();
  if (transactionIds.length === 0) return found;
  const rows = await paymentsWithRefunds(deps.db, transactionIds);
  for (const row of rows) {
    const state = row.refund_status;
    if (state !== 'pending' && state !== 'approved' && state !== 'rejected') continue;
    found.set(row.id, { status: state, reason: row.reason ?? 'customer', amount: Number(row.amount ?? row.grand_total) });
  }
  return found;
}

/** The invoice PDF of one of the user's own transactions: Paddle's short-lived link. */
export async function invoiceLink(deps: ActionDeps, user: UserWithRoles, transactionId: string): Promise<string> {
  const customerId = await customerIdFor(deps, user);
  return callPaddle(
    deps.paddle,
    async (paddle) => {
      const transaction = await paddle.transactions.get(transactionId);
      // Someone else's transaction answers exactly like a missing one.
      if (transaction.customerId !== customerId) throw new AppError('INVOICE_NOT_FOUND', 404);
      return (await paddle.transactions.getInvoicePDF(transactionId, { disposition: 'attachment' })).url;
    },
    'INVOICE_NOT_FOUND',
  );
}
