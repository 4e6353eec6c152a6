import { randomUUID } from 'node:crypto';
import type { IDiscountResponse, IPriceResponse } from '@paddle/paddle-node-sdk';
import { invalid, SandboxError } from './http.js';
import { priceById, recurringDiscount, totalFor, totalsFor, zeroTotals } from './pricing.js';
import {
  addPeriod,
  itemsOf,
  nowOf,
  periodOf,
  subscriptionOf,
  type CardExpiry,
  type Line,
  type Period,
  type PurchaseState,
  type SandboxRecord,
  type SubscriptionItem,
  type Totals,
} from './purchase-state.js';
import { paddleId } from './state.js';

/**
 * Transactions and subscriptions moving through their states as Paddle moves them: a checkout
 * transaction paid with a test card or PayPal, the subscription a paid recurring item starts (with the
 * price's trial), renewals (or past due when the card fails: ./dunning.ts retries), plan changes prorated
 * to the minute, cancelling at the period's end or at once and continuing, the payment method update,
 * and full refunds; each change with the webhooks Paddle sends for it, after the data is saved. What the
 * clock makes due is ./schedule.ts's.
 */

/**
 * Test cards of the stand-in's checkout: `success` always pays, `declined` is refused like a bank
 * refusal, and `failsLater` pays at checkout but is declined on every later charge (renewals,
 * plan switches), which is how a past-due subscription comes about.
 */
export const TEST_CARDS = { success: '4242424242424242', declined: '4000000000000002', failsLater: '4000000000000341' } as const;

/** Paddle refuses to collect less than this (minor units) on a subscription change. */
export const MINIMUM_CHARGE = 70;

const MINUTE = 60_000;

export const touch = (state: PurchaseState, sub: SandboxRecord) => {
  sub.updated_at = nowOf(state);
};

/** A subscription's renewal that could not be charged, waiting for a retry or a new card. */
export const outstanding = (state: PurchaseState, sub: SandboxRecord) => state.transactions.find((t) => t.subscription_id === sub.id && t.status === 'past_due');

/** A card's expiry as the checkout form gives it ("MM/YY"); 12/2030 when none is given (API payments). */
export function expiryOf(given: unknown): CardExpiry {
  const match = typeof given === 'string' ? /^(\d{2})\s*\/\s*(\d{2})$/.exec(given.trim()) : null;
  const month = match ? Number(match[1]) : 12;
  return match && month >= 1 && month <= 12 ? { month, year: 2000 + Number(match[2]) } : { month: 12, year: 2030 };
}

export function newTransaction(
  state: PurchaseState,
  fields: {
    customerId: string | null;
    addressId: string | null;
    lines: Line[];
    status: string;
    origin: string;
    subscriptionId?: string | null;
    customData?: unknown;
    currency?: string | null;
    discount?: IDiscountResponse | null;
    credit?: number;
    billingPeriod?: Period | null;
  },
): SandboxRecord {
  const { currency, details } = totalsFor(state, fields.lines, fields);
  const id = paddleId('txn');
  const created: SandboxRecord = {
    id,
    status: fields.status,
    customer_id: fields.customerId,
    address_id: fields.addressId,
    business_id: null,
    custom_data: fields.customData ?? null,
    origin: fields.origin,
    collection_mode: 'automatic',
    subscription_id: fields.subscriptionId ?? null,
    invoice_id: null,
    invoice_number: null,
    billing_details: null,
    billing_period: fields.billingPeriod ?? null,
    currency_code: currency,
    discount_id: fields.discount?.id ?? null,
    discount: fields.discount ?? null,
    created_at: nowOf(state),
    updated_at: nowOf(state),
    billed_at: null,
    revised_at: null,
    items: fields.lines.map(({ price, quantity, proration }) => ({ price, quantity, proration: proration ?? null })),
    details,
    payments: [],
    checkout: { url: `https://sandbox-checkout.invalid/?_ptxn=${id}` },
  };
  state.transactions.push(created);
  return created;
}

/** `POST /transactions`: a new transaction, ready to pay when it has a customer (a draft without). */
export function createTransaction(state: PurchaseState, fields: Parameters<typeof newTransaction>[1]): SandboxRecord {
  const created = newTransaction(state, fields);
  state.save();
  state.emit('transaction.created', created);
  return created;
}

/** One attempt at collecting a payment, as Paddle lists it on the transaction (`at`: when it was made). */
export function paymentAttempt(state: PurchaseState, status: 'captured' | 'error', method: string, card: string | null, expiry: CardExpiry, at: string = nowOf(state)) {
  return {
    payment_attempt_id: randomUUID(),
    status,
    ...(status === 'error' ? { error_code: 'declined' } : {}),
    created_at: at,
    captured_at: status === 'captured' ? at : null,
    method_details:
      method === 'paypal'
        ? { type: 'paypal', card: null }
        : { type: 'card', card: { type: 'visa', last4: (card ?? '').slice(-4), expiry_month: expiry.month, expiry_year: expiry.year, cardholder_name: 'Test' } },
  };
}

/** The card a subscription is charged on, with its expiry, as its payment attempts name it. */
export const savedCard = (state: PurchaseState, subscriptionId: string): [string | null, CardExpiry] => [
  state.cards[subscriptionId] ?? null,
  state.cardExpiries[subscriptionId] ?? { month: 12, year: 2030 },
];

export function complete(state: PurchaseState, txn: SandboxRecord, method: string, card: string | null, expiry: CardExpiry = { month: 12, year: 2030 }) {
  txn.status = 'completed';
  txn.billed_at = nowOf(state);
  txn.updated_at = nowOf(state);
  txn.invoice_id = paddleId('inv');
  txn.invoice_number = `SBX-${String(state.transactions.indexOf(txn) + 1).padStart(5, '0')}`;
  (txn.payments as unknown[]).push(paymentAttempt(state, 'captured', method, card, expiry));
}

/** Charges a subscription's stored card; false when it is declined (`failsLater` is, on every charge after it was saved). */
export function charge(state: PurchaseState, subscriptionId: string): boolean {
  const card = state.cards[subscriptionId];
  return card !== TEST_CARDS.failsLater && card !== TEST_CARDS.declined;
}

export function subscriptionItem(state: PurchaseState, price: IPriceResponse, status: string, period: Period, trial: Period | null, previouslyBilledAt: string | null): SubscriptionItem {
  return {
    status,
    quantity: 1,
    recurring: true,
    created_at: nowOf(state),
    updated_at: nowOf(state),
    previously_billed_at: previouslyBilledAt,
    next_billed_at: period.ends_at,
    trial_dates: trial,
    price,
    product: state.data.products.find((p) => p.id === price.product_id) ?? null,
  };
}

function startSubscription(state: PurchaseState, txn: SandboxRecord, price: IPriceResponse): SandboxRecord {
  const started = state.clock.now();
  const trial = price.trial_period;
  const cycle = price.billing_cycle ?? { interval: 'month', frequency: 1 };
  const periodEnd = trial ? addPeriod(started, trial.interval, trial.frequency) : addPeriod(started, cycle.interval, cycle.frequency);
  const period = { starts_at: started.toISOString(), ends_at: periodEnd.toISOString() };
  const status = trial ? 'trialing' : 'active';
  const created: SandboxRecord = {
    id: paddleId('sub'),
    status,
    customer_id: txn.customer_id,
    address_id: txn.address_id,
    business_id: null,
    currency_code: txn.currency_code,
    created_at: nowOf(state),
    updated_at: nowOf(state),
    started_at: nowOf(state),
    first_billed_at: trial ? null : nowOf(state),
    next_billed_at: period.ends_at,
    paused_at: null,
    canceled_at: null,
    // The checkout's discount stays on the subscription, as Paddle keeps it: renewals take it off while
    // it lasts (recurringDiscount, ./pricing.ts).
    discount: txn.discount_id ? { id: txn.discount_id, starts_at: nowOf(state), ends_at: null } : null,
    collection_mode: 'automatic',
    billing_details: null,
    current_billing_period: period,
    billing_cycle: cycle,
    scheduled_change: null,
    management_urls: { update_payment_method: null, cancel: 'https://sandbox-checkout.invalid/cancel' },
    items: [subscriptionItem(state, price, status, period, trial ? period : null, trial ? null : nowOf(state))],
    custom_data: txn.custom_data ?? null,
    import_meta: null,
  };
  state.subscriptions.push(created);
  txn.subscription_id = created.id;
  txn.billing_period = period;
  return created;
}

/**
 * `POST /sandbox/transactions/{id}/pay` (not a Paddle path: what the stand-in's checkout calls when a
 * test card or PayPal is submitted). A declined card fails the payment; a paid checkout with a recurring
 * item starts its subscription; a paid payment method change stores the card for the subscription and
 * collects an outstanding renewal on it at once.
 */
export function payTransaction(state: PurchaseState, txn: SandboxRecord, method: 'card' | 'paypal', card: string, expiry: CardExpiry = { month: 12, year: 2030 }): SandboxRecord {
  if (txn.status !== 'ready') throw new SandboxError(400, 'transaction_not_ready', `Transaction is ${String(txn.status)}`);
  if (card === TEST_CARDS.declined) {
    (txn.payments as unknown[]).push(paymentAttempt(state, 'error', 'card', card, expiry));
    txn.updated_at = nowOf(state);
    state.save();
    state.emit('transaction.payment_failed', txn);
    throw new SandboxError(402, 'payment_declined', 'The card was declined');
  }
  if (!(Object.values(TEST_CARDS) as string[]).includes(card)) throw invalid('card_number: use a test card');

  if (txn.origin === 'subscription_payment_method_change') {
    // A new card for the subscription; an outstanding renewal is collected on it at once.
    const sub = subscriptionOf(state, txn.subscription_id as string);
    state.cards[sub.id] = card;
    state.cardExpiries[sub.id] = expiry;
    zeroTotals(txn);
    complete(state, txn, method, card, expiry);
    const unpaid = outstanding(state, sub);
    if (unpaid && charge(state, sub.id)) {
      complete(state, unpaid, method, card, expiry);
      const period = unpaid.billing_period as Period;
      sub.status = 'active';
      sub.current_billing_period = period;
      sub.next_billed_at = period.ends_at;
      sub.items = [subscriptionItem(state, itemsOf(sub)[0]?.price as IPriceResponse, 'active', period, null, nowOf(state))];
      touch(state, sub);
    }
    state.save();
    state.emit('transaction.completed', txn);
    if (unpaid?.status === 'completed') {
      state.emit('subscription.updated', sub);
      state.emit('transaction.completed', unpaid);
    }
    return txn;
  }

  const recurring = (txn.items as Line[]).find((item) => item.price.billing_cycle);
  // A trial is free: the first charge comes when it ends.
  if (recurring?.price.trial_period) zeroTotals(txn);
  complete(state, txn, method, card, expiry);
  const started = recurring ? startSubscription(state, txn, recurring.price) : null;
  if (started) {
    state.cards[started.id] = card;
    state.cardExpiries[started.id] = expiry;
  }
  state.save();
  if (started) state.emit('subscription.created', started);
  state.emit('transaction.completed', txn);
  return txn;
}

/**
 * A full refund of a completed transaction (`type: full`), as Paddle's Adjustments API makes it: created
 * pending approval, then approved (Paddle reviews refunds; the stand-in approves at once), each with its
 * webhook; the transaction's adjusted totals drop to zero. Answers the adjustment as created.
 */
export function refundTransaction(state: PurchaseState, txn: SandboxRecord, reason: string): SandboxRecord {
  if (txn.status !== 'completed') throw new SandboxError(400, 'transaction_adjustment_not_allowed', `Transaction is ${String(txn.status)}`);
  const totals = (txn.details as { totals: Totals }).totals;
  const total = Number(totals.grand_total);
  if (total <= 0) throw new SandboxError(400, 'adjustment_amount_cannot_be_zero', 'Nothing was paid on this transaction');
  if (state.adjustments.some((a) => a.transaction_id === txn.id && a.action === 'refund' && a.status !== 'rejected')) {
    throw new SandboxError(400, 'adjustment_amount_above_remaining_allowed', 'The transaction has been refunded already');
  }
  const created: SandboxRecord = {
    id: paddleId('adj'),
    action: 'refund',
    type: 'full',
    transaction_id: txn.id,
    subscription_id: txn.subscription_id ?? null,
    customer_id: txn.customer_id,
    reason,
    credit_applied_to_balance: null,
    currency_code: txn.currency_code,
    status: 'pending_approval',
    items: ((txn.details as { line_items: { id: string; totals: Totals }[] }).line_items ?? []).map((line) => ({
      item_id: line.id,
      type: 'full',
      amount: line.totals.total,
      proration: null,
      totals: { subtotal: line.totals.subtotal, tax: line.totals.tax, total: line.totals.total },
    })),
    totals: { subtotal: totals.subtotal, tax: totals.tax, total: totals.grand_total, fee: '0', earnings: '0', currency_code: txn.currency_code },
    payout_totals: null,
    created_at: nowOf(state),
    updated_at: nowOf(state),
  };
  state.adjustments.push(created);
  state.emit('adjustment.created', created);
  const approved = { ...created, status: 'approved' };
  Object.assign(created, approved);
  (txn.details as { adjusted_totals: unknown }).adjusted_totals = {
    subtotal: '0', tax: '0', total: '0', grand_total: '0', fee: '0', earnings: '0', currency_code: txn.currency_code,
  };
  txn.updated_at = nowOf(state);
  state.save();
  state.emit('adjustment.updated', created);
  state.emit('transaction.updated', txn);
  return { ...created, status: 'pending_approval' };
}

/**
 * One renewal of `sub`, due at its `next_billed_at`: the charge, and the next period; or, when the card is
 * declined, the transaction and the subscription past due (Paddle's `transaction.payment_failed`,
 * `transaction.past_due`, `subscription.past_due`), for ./dunning.ts to retry on its schedule.
 */
export function renew(state: PurchaseState, sub: SandboxRecord) {
  const { emit } = state;
  const [card, expiry] = savedCard(state, sub.id);
  const startsAt = new Date(sub.next_billed_at as string);
  const price = itemsOf(sub)[0]?.price as IPriceResponse;
  const cycle = price.billing_cycle ?? { interval: 'month', frequency: 1 };
  const period = { starts_at: startsAt.toISOString(), ends_at: addPeriod(startsAt, cycle.interval, cycle.frequency).toISOString() };
  const txn = newTransaction(state, {
    customerId: sub.customer_id as string,
    addressId: sub.address_id as string,
    lines: [{ price, quantity: 1 }],
    status: 'billed',
    origin: 'subscription_recurring',
    subscriptionId: sub.id,
    currency: sub.currency_code as string,
    billingPeriod: period,
    discount: recurringDiscount(state, sub),
  });
  const wasTrialing = sub.status === 'trialing';
  if (!charge(state, sub.id)) {
    txn.status = 'past_due';
    // Made when the renewal fell due (the clock may have jumped past it): Paddle's retries count from then.
    (txn.payments as unknown[]).push(paymentAttempt(state, 'error', 'card', card, expiry, startsAt.toISOString()));
    sub.status = 'past_due';
    sub.next_billed_at = null;
    for (const item of itemsOf(sub)) item.status = 'active';
    touch(state, sub);
    emit('transaction.payment_failed', txn);
    emit('transaction.past_due', txn);
    emit('subscription.past_due', sub);
    return;
  }
  complete(state, txn, 'card', card, expiry);
  sub.status = 'active';
  sub.first_billed_at ??= txn.billed_at;
  sub.current_billing_period = period;
  sub.next_billed_at = period.ends_at;
  sub.items = [subscriptionItem(state, price, 'active', period, null, txn.billed_at as string)];
  touch(state, sub);
  if (wasTrialing) emit('subscription.activated', sub);
  emit('subscription.updated', sub);
  emit('transaction.completed', txn);
}

/** `POST /subscriptions/{id}/activate`: ends a trial now; the first charge is made and a billing period starts. */
export function activateSubscription(state: PurchaseState, sub: SandboxRecord): SandboxRecord {
  if (sub.status !== 'trialing') throw new SandboxError(400, 'subscription_cannot_activate', 'Only a trialing subscription can be activated');
  sub.next_billed_at = nowOf(state);
  sub.current_billing_period = { starts_at: periodOf(sub).starts_at, ends_at: nowOf(state) };
  renew(state, sub);
  state.save();
  return sub;
}

/** `POST /subscriptions/{id}/cancel`: at once, or (Paddle's default) at the end of the billing period. */
export function cancelSubscription(state: PurchaseState, sub: SandboxRecord, immediately: boolean): SandboxRecord {
  if (sub.status === 'canceled') throw new SandboxError(400, 'subscription_update_when_canceled', 'The subscription is canceled');
  // Ended now, an overdue renewal's transaction is cancelled with it (nothing more is collected).
  const unpaid = immediately ? outstanding(state, sub) : undefined;
  if (immediately) {
    sub.status = 'canceled';
    sub.canceled_at = nowOf(state);
    sub.next_billed_at = null;
    sub.scheduled_change = null;
    if (unpaid) unpaid.status = 'canceled';
  } else {
    sub.scheduled_change = { action: 'cancel', effective_at: periodOf(sub).ends_at, resume_at: null };
    sub.next_billed_at = null;
  }
  touch(state, sub);
  state.save();
  if (unpaid) state.emit('transaction.canceled', unpaid);
  state.emit(sub.status === 'canceled' ? 'subscription.canceled' : 'subscription.updated', sub);
  return sub;
}

/**
 * A change of plan as Paddle makes it with `prorated_immediately`: while trialing, the new price
 * replaces the old and is first charged when the trial ends; otherwise a new billing period starts
 * now, the full new price is charged and the unused time of the old one (to the minute) credited.
 * Answers the change's figures (what the preview shows) and `apply`, which makes it.
 */
export function planChange(state: PurchaseState, sub: SandboxRecord, body: Record<string, unknown>) {
  if (sub.status === 'canceled') throw new SandboxError(400, 'subscription_update_when_canceled', 'The subscription is canceled');
  if (sub.status === 'past_due' || outstanding(state, sub)) {
    throw new SandboxError(409, 'subscription_outstanding_transaction', 'The subscription has an outstanding transaction');
  }
  if (sub.scheduled_change) throw new SandboxError(400, 'subscription_locked_pending_changes', 'The subscription has a scheduled change');
  const requested = Array.isArray(body.items) ? (body.items as { price_id?: string; quantity?: number }[]) : [];
  if (requested.length !== 1) throw invalid('items: exactly one item is supported');
  const mode = body.proration_billing_mode;
  if (mode !== 'prorated_immediately') throw invalid('proration_billing_mode: the stand-in supports prorated_immediately');
  const price = priceById(state, requested[0]?.price_id);
  if (!price.billing_cycle) throw invalid('items: a recurring price is required');
  const currency = sub.currency_code as string;
  const customer = { customerId: sub.customer_id as string, addressId: sub.address_id as string, currency };
  const cycle = price.billing_cycle;

  if (sub.status === 'trialing') {
    const trial = periodOf(sub);
    const nextPeriod = { starts_at: trial.ends_at, ends_at: addPeriod(new Date(trial.ends_at), cycle.interval, cycle.frequency).toISOString() };
    const next = totalsFor(state, [{ price, quantity: 1 }], customer);
    const money = { amount: '0', currency_code: currency };
    return {
      price,
      immediate: null,
      next: { billing_period: nextPeriod, details: next.details, adjustments: [] },
      summary: { credit: money, charge: money, result: { action: 'charge', amount: '0', currency_code: currency } },
      apply: () => {
        sub.items = [subscriptionItem(state, price, 'trialing', trial, trial, null)];
        sub.billing_cycle = cycle;
        return null;
      },
    };
  }

  const old = itemsOf(sub)[0]?.price as IPriceResponse;
  const period = periodOf(sub);
  const nowMs = Math.floor(state.clock.now().getTime() / MINUTE) * MINUTE;
  const totalMinutes = Math.round((new Date(period.ends_at).getTime() - new Date(period.starts_at).getTime()) / MINUTE);
  const unusedMinutes = Math.max(0, Math.floor((new Date(period.ends_at).getTime() - nowMs) / MINUTE));
  const unused = totalFor(state, old, totalMinutes > 0 ? unusedMinutes / totalMinutes : 0, customer);
  const starts = new Date(nowMs);
  const newPeriod = { starts_at: starts.toISOString(), ends_at: addPeriod(starts, cycle.interval, cycle.frequency).toISOString() };
  const immediate = totalsFor(state, [{ price, quantity: 1, proration: { rate: '1', billing_period: newPeriod } }], { ...customer, credit: unused });
  const totals = immediate.details.totals;
  const due = Number(totals.grand_total);
  const next = totalsFor(state, [{ price, quantity: 1 }], customer);
  return {
    price,
    immediate: { billing_period: newPeriod, details: immediate.details, adjustments: [] },
    next: {
      billing_period: { starts_at: newPeriod.ends_at, ends_at: addPeriod(new Date(newPeriod.ends_at), cycle.interval, cycle.frequency).toISOString() },
      details: next.details,
      adjustments: [],
    },
    summary: {
      credit: { amount: String(unused), currency_code: currency },
      charge: { amount: totals.total, currency_code: currency },
      result: due > 0 ? { action: 'charge', amount: String(due), currency_code: currency } : { action: 'credit', amount: totals.credit_to_balance, currency_code: currency },
    },
    apply: () => {
      if (due > 0 && due < MINIMUM_CHARGE) {
        throw new SandboxError(400, 'subscription_update_transaction_balance_less_than_charge_limit', 'The amount to charge is below the minimum');
      }
      if (due > 0 && !charge(state, sub.id)) throw new SandboxError(400, 'subscription_payment_declined', 'The payment method was declined');
      const txn = newTransaction(state, {
        customerId: sub.customer_id as string,
        addressId: sub.address_id as string,
        lines: [{ price, quantity: 1, proration: { rate: '1', billing_period: newPeriod } }],
        status: 'billed',
        origin: 'subscription_update',
        subscriptionId: sub.id,
        currency,
        credit: unused,
        billingPeriod: newPeriod,
      });
      complete(state, txn, 'card', ...savedCard(state, sub.id));
      sub.items = [subscriptionItem(state, price, 'active', newPeriod, null, txn.billed_at as string)];
      sub.billing_cycle = cycle;
      sub.current_billing_period = newPeriod;
      sub.next_billed_at = newPeriod.ends_at;
      return txn;
    },
  };
}

/** `PATCH /subscriptions/{id}/preview`: the subscription as the plan change would leave it, with what it charges. */
export function previewPlanChange(state: PurchaseState, sub: SandboxRecord, body: Record<string, unknown>) {
  const change = planChange(state, sub, body);
  const period = change.immediate?.billing_period ?? periodOf(sub);
  return {
    ...sub,
    items: [subscriptionItem(state, change.price, sub.status === 'trialing' ? 'trialing' : 'active', period, sub.status === 'trialing' ? period : null, null)],
    billing_cycle: change.price.billing_cycle,
    current_billing_period: period,
    next_billed_at: change.next.billing_period.starts_at,
    immediate_transaction: change.immediate,
    next_transaction: change.next,
    recurring_transaction_details: change.next.details,
    update_summary: change.summary,
  };
}

/**
 * `PATCH /subscriptions/{id}`: a plan change (`items`), or a scheduled cancellation withdrawn
 * (`scheduled_change: null`), the subscription continuing.
 */
export function updateSubscription(state: PurchaseState, sub: SandboxRecord, body: Record<string, unknown>): SandboxRecord {
  let charged: SandboxRecord | null = null;
  if (body.items !== undefined) {
    charged = planChange(state, sub, body).apply();
  } else if ('scheduled_change' in body && body.scheduled_change === null) {
    if (sub.status === 'canceled') throw new SandboxError(400, 'subscription_update_when_canceled', 'The subscription is canceled');
    sub.scheduled_change = null;
    sub.next_billed_at = periodOf(sub).ends_at;
  }
  touch(state, sub);
  state.save();
  state.emit('subscription.updated', sub);
  if (charged) state.emit('transaction.completed', charged);
  return sub;
}

/** `GET /subscriptions/{id}/update-payment-method-transaction`: a free transaction whose payment stores a new card. */
export function paymentMethodTransaction(state: PurchaseState, sub: SandboxRecord): SandboxRecord {
  if (sub.status === 'canceled') throw new SandboxError(400, 'subscription_update_when_canceled', 'The subscription is canceled');
  const created = newTransaction(state, {
    customerId: sub.customer_id as string,
    addressId: sub.address_id as string,
    lines: itemsOf(sub).map((item) => ({ price: item.price, quantity: item.quantity })),
    status: 'ready',
    origin: 'subscription_payment_method_change',
    subscriptionId: sub.id,
    currency: sub.currency_code as string,
  });
  zeroTotals(created);
  state.save();
  state.emit('transaction.created', created);
  return created;
}
