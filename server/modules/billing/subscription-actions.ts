import type { Paddle, Subscription as PaddleSubscription } from '@paddle/paddle-node-sdk';
import type { Kysely } from 'kysely';
import type { Subscription } from '../../../contract/subscription.js';
import { callPaddle } from '../../billing/paddle.js';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { UserWithRoles } from '../users/repo.js';
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
      return (await paddle.transactions.getInvoicePDF(transactionId)).url;
    },
    'INVOICE_NOT_FOUND',
  );
}
