import type { Overview } from '../../../contract/overview.js';
import type { PaymentMethod, Subscription } from '../../../contract/subscription.js';
import type { Money } from '../../../contract/billing.js';
import { callPaddle } from '../../billing/paddle.js';
import { AppError } from '../../errors.js';
import { planBuyerOf, type Catalogue, paymentMethodOf, type ActionDeps, subscriptionOf } from '../billing/index.js';
import { seatCountOf } from '../devices/index.js';
import { type KeptEntitlements } from '../entitlements/index.js';
import type { UserWithRoles } from '../users/index.js';

type Part = Overview['unavailable'][number];

/**
 * What the payment provider tells about the subscription; a failure there (an AppError from callPaddle)
 * leaves the part out, never the answer. Anything else is a bug and is not hidden as "unavailable".
 */
async function fromProvider<T>(part: Part, unavailable: Part[], read: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    unavailable.push(part);
    return fallback;
  }
}

/** The plan's price per interval (tax excluded) for this customer, when Paddle prices it in the subscription's own currency. */
async function planPrice(deps: ActionDeps, catalogue: Catalogue, user: UserWithRoles, subscription: Subscription) {
  const [prices, plans] = await Promise.all([catalogue.pricesFor([subscription.priceId], await planBuyerOf(deps, user)), catalogue.plans()]);
  const price = prices.get(subscription.priceId);
  return {
    price: price && price.currencyCode === subscription.currencyCode ? price : null,
    planName: plans.find((plan) => plan.id === subscription.priceId)?.description ?? null,
  };
}

/**
 * What Paddle will charge at the next renewal (its `next_transaction`: the plan's price less a discount
 * that still runs, tax included), in the subscription's currency; null when nothing more is billed.
 */
async function nextChargeAmount(deps: ActionDeps, subscriptionId: string): Promise<Money | null> {
  const subscription = await callPaddle(deps.paddle, (paddle) => paddle.subscriptions.get(subscriptionId, { include: ['next_transaction'] }));
  const totals = subscription.nextTransaction?.details.totals;
  return totals ? { amount: Number(totals.grandTotal), currencyCode: totals.currencyCode } : null;
}

const LIVE = new Set<Subscription['status']>(['active', 'trialing', 'past_due', 'paused']);

/** The account home's deps: billing's, and the entitlements kept until a write changes them (issue 45). */
export interface OverviewDeps extends ActionDeps {
  entitlements: Pick<KeptEntitlements, 'of'>;
}

/**
 * `GET /users/me/overview` (issue 20): the account home's one answer. The entitlement is `entitlementsFrom`
 * at this moment over what the user holds, the very function and holdings behind `/desktop/heartbeat` (and
 * `/desktop/activate`, which reads them anew), so the home and the desktop application never disagree. The
 * subscription's price and payment method come from Paddle; when it does not answer, those parts are named
 * in `unavailable` and the rest (all of it from the database) stands.
 */
export async function overviewOf(deps: OverviewDeps, catalogue: Catalogue, user: UserWithRoles): Promise<Overview> {
  const now = deps.clock.now();
  const [{ entitlement, seatLimit }, subscription, seatsUsed] = await Promise.all([
    deps.entitlements.of(user.id, now),
    subscriptionOf(deps.db, user.id, now),
    seatCountOf(deps.db, user.id),
  ]);
  const unavailable: Part[] = [];
  const live = subscription !== null && LIVE.has(subscription.status);
  const billsAgain = live && subscription.nextBilledAt !== null && subscription.scheduledChange?.action !== 'cancel';
  const [priced, paymentMethod, nextAmount] = await Promise.all([
    subscription ? fromProvider('price', unavailable, () => planPrice(deps, catalogue, user, subscription), { price: null, planName: null }) : null,
    live ? fromProvider<PaymentMethod | null>('paymentMethod', unavailable, () => paymentMethodOf(deps, user), null) : null,
    billsAgain ? fromProvider<Money | null>('nextCharge', unavailable, () => nextChargeAmount(deps, subscription.id), null) : null,
  ]);

  let summary: Overview['subscription'] = null;
  if (subscription) {
    const cancelling = subscription.scheduledChange?.action === 'cancel' ? subscription.scheduledChange.effectiveAt : null;
    const endsAt = subscription.status === 'canceled' ? (subscription.canceledAt ?? subscription.currentPeriod?.endsAt ?? null) : cancelling;
    // Paddle drops next_billed_at once a cancellation is scheduled; a subscription that ends charges nothing more.
    const nextAt = endsAt ? null : subscription.nextBilledAt;
    summary = {
      status: subscription.status,
      interval: subscription.interval === 'month' || subscription.interval === 'year' ? subscription.interval : null,
      planName: priced?.planName ?? null,
      price: priced?.price ?? null,
      nextCharge: nextAt ? { at: new Date(nextAt).toISOString(), amount: nextAmount ?? null } : null,
      trialEndsAt: subscription.status === 'trialing' && subscription.trialEndsAt ? new Date(subscription.trialEndsAt).toISOString() : null,
      endsAt: endsAt ? new Date(endsAt).toISOString() : null,
      pastDue: subscription.pastDue,
      pause: subscription.pause,
    };
  }

  return {
    entitlement,
    subscription: summary,
    paymentMethod,
    seats: { used: seatsUsed, limit: seatLimit },
    licences: entitlement.items.filter((item) => item.kind === 'licence'),
    accessEndsAt: entitlement.accessEndsAt,
    unavailable: unavailable.sort(),
  };
}
