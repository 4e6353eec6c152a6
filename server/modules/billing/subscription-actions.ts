import type { Paddle, Subscription as PaddleSubscription } from '@paddle/paddle-node-sdk';
import type { Kysely } from 'kysely';
import type { PaymentMethod, PlanChangePreview, Subscription } from '../../../contract/subscription.js';
import { callPaddle } from '../../billing/paddle.js';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { UserWithRoles } from '../users/repo.js';
import type { Catalogue } from './catalogue.js';
import { customerIdFor } from './customers.js';
import { subscriptionOf, upsertSubscription } from './subscriptions.js';

/** Spec section 9: a subscription cannot be changed in the 30 minutes before it renews. */
export const RENEWAL_LOCK_MS = 30 * 60 * 1000;

export interface ActionDeps {
  db: Kysely<Database>;
  paddle: Paddle | null;
  clock: Clock;
}

async function current(deps: ActionDeps, user: UserWithRoles): Promise<Subscription> {
  const subscription = await subscriptionOf(deps.db, user.id);
  if (!subscription) throw new AppError('SUBSCRIPTION_NOT_FOUND', 404);
  return subscription;
}

/** The moment the subscription next renews (or would, for one whose cancellation is being undone). */
function renewsAt(subscription: Subscription): Date | null {
  const at = subscription.nextBilledAt ?? (subscription.scheduledChange?.action === 'cancel' ? subscription.scheduledChange.effectiveAt : null);
  return at ? new Date(at) : null;
}

function assertNotLocked(subscription: Subscription, now: Date): void {
  const renews = renewsAt(subscription);
  if (renews && renews.getTime() > now.getTime() && renews.getTime() - now.getTime() < RENEWAL_LOCK_MS) {
    throw new AppError('SUBSCRIPTION_LOCKED', 409);
  }
}

/** Keeps the local copy in step with Paddle's answer (the webhook that follows changes nothing then). */
async function remember(deps: ActionDeps, subscription: PaddleSubscription): Promise<void> {
  const item = subscription.items[0];
  await upsertSubscription(deps.db, {
    id: subscription.id,
    customerId: subscription.customerId,
    status: subscription.status,
    priceId: item?.price?.id ?? '',
    interval: subscription.billingCycle.interval,
    currencyCode: subscription.currencyCode,
    periodStartsAt: subscription.currentBillingPeriod?.startsAt,
    periodEndsAt: subscription.currentBillingPeriod?.endsAt,
    nextBilledAt: subscription.nextBilledAt,
    trialEndsAt: item?.trialDates?.endsAt,
    scheduledChange: subscription.scheduledChange
      ? { action: subscription.scheduledChange.action, effectiveAt: subscription.scheduledChange.effectiveAt }
      : null,
    canceledAt: subscription.canceledAt,
    createdAt: subscription.createdAt,
    asOf: subscription.updatedAt,
  });
}

/** Cancel at the end of the period: it stays active until then (spec section 4) and can be continued. */
export async function cancelSubscription(deps: ActionDeps, user: UserWithRoles): Promise<Subscription> {
  const subscription = await current(deps, user);
  if (subscription.status === 'canceled') throw new AppError('SUBSCRIPTION_NOT_FOUND', 404);
  assertNotLocked(subscription, deps.clock.now());
  const updated = await callPaddle(deps.paddle, (paddle) => paddle.subscriptions.cancel(subscription.id, { effectiveFrom: 'next_billing_period' }), 'SUBSCRIPTION_NOT_FOUND');
  await remember(deps, updated);
  return (await subscriptionOf(deps.db, user.id)) as Subscription;
}

/** Continue: the scheduled cancellation is removed; billing resumes at the end of the period. */
export async function continueSubscription(deps: ActionDeps, user: UserWithRoles): Promise<Subscription> {
  const subscription = await current(deps, user);
  if (subscription.scheduledChange?.action !== 'cancel') return subscription;
  assertNotLocked(subscription, deps.clock.now());
  const updated = await callPaddle(deps.paddle, (paddle) => paddle.subscriptions.update(subscription.id, { scheduledChange: null }), 'SUBSCRIPTION_NOT_FOUND');
  await remember(deps, updated);
  return (await subscriptionOf(deps.db, user.id)) as Subscription;
}

/** The subscription's plan for `interval`, checked: not the current one, not while a cancellation is pending. */
async function target(deps: ActionDeps, catalogue: Catalogue, subscription: Subscription, interval: 'month' | 'year') {
  if (subscription.status === 'canceled') throw new AppError('SUBSCRIPTION_NOT_FOUND', 404);
  if (subscription.interval === interval) throw new AppError('VALIDATION_FAILED', 400);
  if (subscription.scheduledChange?.action === 'cancel') throw new AppError('SUBSCRIPTION_CHANGE_PENDING', 409);
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
  return (await subscriptionOf(deps.db, user.id)) as Subscription;
}

/** The transaction the provider's checkout opens to take a new card (or PayPal) for the subscription. */
export async function paymentMethodTransaction(deps: ActionDeps, user: UserWithRoles): Promise<{ transactionId: string }> {
  const subscription = await current(deps, user);
  if (subscription.status === 'canceled') throw new AppError('SUBSCRIPTION_NOT_FOUND', 404);
  const transaction = await callPaddle(deps.paddle, (paddle) => paddle.subscriptions.getPaymentMethodChangeTransaction(subscription.id), 'SUBSCRIPTION_NOT_FOUND');
  return { transactionId: transaction.id };
}

/** How the subscription is paid: the method of its latest captured payment, or null before the first. */
export async function paymentMethodOf(deps: ActionDeps, user: UserWithRoles): Promise<PaymentMethod | null> {
  const subscription = await current(deps, user);
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
  const stored = await subscriptionOf(deps.db, user.id);
  if (!stored) throw new AppError('SUBSCRIPTION_NOT_FOUND', 404);
  return stored;
}

async function all<T>(collection: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of collection) items.push(item);
  return items;
}

/** `GET /subscription/billing/invoice`: the user's billed transactions, newest first, each with its invoice link. */
export async function invoices(deps: ActionDeps, user: UserWithRoles) {
  const customerId = await customerIdFor(deps, user);
  const transactions = await callPaddle(deps.paddle, (paddle) =>
    all(paddle.transactions.list({ customerId: [customerId], status: ['completed', 'billed'] })),
  );
  return transactions.map((transaction) => ({
    id: transaction.id,
    status: transaction.status,
    billedAt: transaction.billedAt,
    invoiceNumber: transaction.invoiceNumber,
    total: { amount: Number.parseInt(transaction.details?.totals?.grandTotal ?? '0', 10), currencyCode: transaction.currencyCode },
    items: transaction.items.map((item) => ({ priceId: item.price?.id ?? null, name: item.price?.name ?? item.price?.description ?? '' })),
    invoiceUrl: `/api/subscription/billing/invoice/${transaction.id}`,
  }));
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
