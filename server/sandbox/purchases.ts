import { randomUUID } from 'node:crypto';
import type { IDiscountResponse, IPriceResponse } from '@paddle/paddle-node-sdk';
import type { Clock } from '../clock.js';
import { discountAmount, discountProblem } from './api.js';
import { invalid, list, notFound, SandboxError, type Route } from './http.js';
import { paddleId, type SandboxState } from './state.js';
import { taxRate } from './tax.js';

/**
 * Test cards of the stand-in's checkout: `success` always pays, `declined` is refused like a bank
 * refusal, and `failsLater` pays at checkout but is declined on every later charge (renewals,
 * plan switches), which is how a past-due subscription comes about.
 */
export const TEST_CARDS = { success: '4242424242424242', declined: '4000000000000002', failsLater: '4000000000000341' } as const;

/** Paddle refuses to collect less than this (minor units) on a subscription change. */
export const MINIMUM_CHARGE = 70;

export type SandboxRecord = Record<string, unknown> & { id: string };
export type EmitEvent = (type: string, data: SandboxRecord) => void;

type Period = { starts_at: string; ends_at: string };
type Proration = { rate: string; billing_period: Period };
type Line = { price: IPriceResponse; quantity: number; proration?: Proration | null };
type SubscriptionItem = { price: IPriceResponse; quantity: number; [field: string]: unknown };
type Totals = Record<string, string | null>;

function addPeriod(start: Date, interval: string, frequency: number): Date {
  const next = new Date(start.getTime());
  if (interval === 'day') next.setUTCDate(next.getUTCDate() + frequency);
  else if (interval === 'week') next.setUTCDate(next.getUTCDate() + 7 * frequency);
  else if (interval === 'month') next.setUTCMonth(next.getUTCMonth() + frequency);
  else next.setUTCFullYear(next.getUTCFullYear() + frequency);
  return next;
}

const MINUTE = 60_000;

/**
 * Transactions and subscriptions of the stand-in: checkout transactions and paying them with a test card
 * or PayPal (the stand-in's checkout calls `POST /sandbox/transactions/{id}/pay`), the subscription a paid
 * recurring item starts (with the price's trial), renewals as the clock passes `next_billed_at`, plan
 * changes prorated to the minute, cancelling at the period's end and continuing, the payment method
 * update transaction, and the webhooks Paddle sends for each.
 */
export function purchases(
  state: SandboxState,
  clock: Clock,
  emit: EmitEvent,
  /** Where invoice PDFs are served (the portal's /paddle-sandbox/invoices outside tests). */
  invoiceBaseUrl = 'https://sandbox-invoices.invalid',
): { routes: Route[]; tick: () => void } {
  const data = state.data as typeof state.data & {
    transactions?: SandboxRecord[];
    subscriptions?: SandboxRecord[];
    adjustments?: SandboxRecord[];
    /** The card each subscription is charged on (the stand-in's stand-in for a stored payment method). */
    cards?: Record<string, string>;
  };
  data.transactions ??= [];
  data.subscriptions ??= [];
  data.adjustments ??= [];
  const adjustments = data.adjustments;
  data.cards ??= {};
  const transactions = data.transactions;
  const subscriptions = data.subscriptions;
  const cards = data.cards;
  const now = () => clock.now().toISOString();

  const priceById = (id: unknown): IPriceResponse => {
    const price = data.prices.find((p) => p.id === id && p.status === 'active');
    if (!price) throw notFound(`Price ${String(id)}`);
    return price;
  };
  const transaction = (id: string) => transactions.find((t) => t.id === id) ?? (() => { throw notFound('Transaction'); })();
  const subscription = (id: string) => subscriptions.find((s) => s.id === id) ?? (() => { throw notFound('Subscription'); })();

  /**
   * A non-catalogue price given in a transaction's items: Paddle stores it as a price of type `custom`
   * (with an id, so a subscription can renew on it) that catalogue lists leave out.
   */
  function customPrice(given: Record<string, unknown>): IPriceResponse {
    const product = data.products.find((p) => p.id === given.product_id);
    if (!product) throw notFound(`Product ${String(given.product_id)}`);
    const unit = given.unit_price as { amount?: string; currency_code?: string } | undefined;
    if (typeof given.description !== 'string' || !unit?.amount || !unit.currency_code) throw invalid('items.price: description and unit_price are required');
    const price = {
      id: paddleId('pri'),
      product_id: product.id,
      type: 'custom',
      description: given.description,
      name: (given.name as string | null | undefined) ?? null,
      billing_cycle: (given.billing_cycle as IPriceResponse['billing_cycle']) ?? null,
      trial_period: (given.trial_period as IPriceResponse['trial_period']) ?? null,
      tax_mode: (given.tax_mode as IPriceResponse['tax_mode']) ?? 'account_setting',
      unit_price: { amount: unit.amount, currency_code: unit.currency_code },
      unit_price_overrides: (given.unit_price_overrides as IPriceResponse['unit_price_overrides']) ?? [],
      quantity: (given.quantity as IPriceResponse['quantity']) ?? { minimum: 1, maximum: 1 },
      status: 'active',
      custom_data: (given.custom_data as IPriceResponse['custom_data']) ?? null,
      import_meta: null,
      created_at: now(),
      updated_at: now(),
    } as IPriceResponse;
    data.prices.push(price);
    return price;
  }

  /** The unit price in the buyer's currency: the override for their country, or for the given currency. */
  function unitAmount(price: IPriceResponse, country: string | null, currency: string | null): { amount: number; currency: string } {
    const override = price.unit_price_overrides?.find((o) =>
      currency ? o.unit_price.currency_code === currency : country !== null && (o.country_codes as string[]).includes(country),
    );
    const unit = override?.unit_price ?? price.unit_price;
    return { amount: Number(unit.amount), currency: unit.currency_code };
  }

  /** Totals as Paddle computes them: per line, discount before tax, tax rounded per line; a credit reduces what is due. */
  function totalsFor(
    lines: Line[],
    options: { customerId: string | null; addressId: string | null; currency?: string | null; discount?: IDiscountResponse | null; credit?: number },
  ) {
    const address = options.addressId ? data.addresses.find((a) => a.id === options.addressId && a.customer_id === options.customerId) : undefined;
    const business = data.businesses.find((b) => b.customer_id === options.customerId && b.status === 'active');
    const country = address?.country_code ?? null;
    const rate = taxRate(country, business ? { taxIdentifier: business.tax_identifier ?? null } : null);
    const currency = options.currency ?? (lines[0] ? unitAmount(lines[0].price, country, null).currency : 'USD');
    const lineItems = lines.map(({ price, quantity, proration }) => {
      const unit = unitAmount(price, country, currency).amount;
      const subtotal = Math.round(unit * quantity * (proration ? Number(proration.rate) : 1));
      const applies =
        options.discount && (!options.discount.restrict_to?.length || options.discount.restrict_to.includes(price.id) || options.discount.restrict_to.includes(price.product_id));
      const off = applies && options.discount ? discountAmount(options.discount, subtotal, quantity, currency) : 0;
      const tax = Math.round(((subtotal - off) * rate) / 100);
      const totals = { subtotal: String(subtotal), discount: String(off), tax: String(tax), total: String(subtotal - off + tax) };
      return {
        id: paddleId('txnitm'),
        price_id: price.id,
        quantity,
        tax_rate: String(rate / 100),
        unit_totals: { subtotal: String(unit), discount: String(Math.round(off / quantity)), tax: String(Math.round(tax / quantity)), total: String(Math.round((subtotal - off + tax) / quantity)) },
        totals,
        product: data.products.find((p) => p.id === price.product_id) ?? null,
        proration: proration ?? null,
      };
    });
    const sum = (field: 'subtotal' | 'discount' | 'tax' | 'total') => lineItems.reduce((n, l) => n + Number(l.totals[field]), 0);
    const total = sum('total');
    const credit = Math.min(options.credit ?? 0, total);
    const totals: Totals = {
      subtotal: String(sum('subtotal')),
      discount: String(sum('discount')),
      tax: String(sum('tax')),
      total: String(total),
      credit: String(credit),
      credit_to_balance: String((options.credit ?? 0) - credit),
      balance: String(total - credit),
      grand_total: String(total - credit),
      grand_total_tax: String(sum('tax')),
      fee: null,
      earnings: null,
      currency_code: currency,
    };
    return {
      currency,
      details: {
        tax_rates_used: [{ tax_rate: String(rate / 100), totals: { subtotal: totals.subtotal, discount: totals.discount, tax: totals.tax, total: totals.total } }],
        totals,
        adjusted_totals: null,
        payout_totals: null,
        adjusted_payout_totals: null,
        line_items: lineItems,
      },
    };
  }

  function newTransaction(fields: {
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
  }): SandboxRecord {
    const { currency, details } = totalsFor(fields.lines, fields);
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
      created_at: now(),
      updated_at: now(),
      billed_at: null,
      revised_at: null,
      items: fields.lines.map(({ price, quantity, proration }) => ({ price, quantity, proration: proration ?? null })),
      details,
      payments: [],
      checkout: { url: `https://sandbox-checkout.invalid/?_ptxn=${id}` },
    };
    transactions.push(created);
    return created;
  }

  function zeroTotals(txn: SandboxRecord) {
    const totals = (txn.details as { totals: Totals }).totals;
    for (const key of ['subtotal', 'discount', 'tax', 'total', 'credit', 'balance', 'grand_total', 'grand_total_tax']) totals[key] = '0';
  }

  function paymentAttempt(status: 'captured' | 'error', method: string, card: string | null) {
    return {
      payment_attempt_id: randomUUID(),
      status,
      ...(status === 'error' ? { error_code: 'declined' } : {}),
      created_at: now(),
      captured_at: status === 'captured' ? now() : null,
      method_details:
        method === 'paypal'
          ? { type: 'paypal', card: null }
          : { type: 'card', card: { type: 'visa', last4: (card ?? '').slice(-4), expiry_month: 12, expiry_year: 2030, cardholder_name: 'Test' } },
    };
  }

  function complete(txn: SandboxRecord, method: string, card: string | null) {
    txn.status = 'completed';
    txn.billed_at = now();
    txn.updated_at = now();
    txn.invoice_id = paddleId('inv');
    txn.invoice_number = `SBX-${String(transactions.indexOf(txn) + 1).padStart(5, '0')}`;
    (txn.payments as unknown[]).push(paymentAttempt('captured', method, card));
  }

  /** Charges a subscription's stored card; false when it is declined. */
  function charge(subscriptionId: string): boolean {
    const card = cards[subscriptionId];
    return card !== TEST_CARDS.failsLater && card !== TEST_CARDS.declined;
  }

  function subscriptionItem(price: IPriceResponse, status: string, period: Period, trial: Period | null, previouslyBilledAt: string | null): SubscriptionItem {
    return {
      status,
      quantity: 1,
      recurring: true,
      created_at: now(),
      updated_at: now(),
      previously_billed_at: previouslyBilledAt,
      next_billed_at: period.ends_at,
      trial_dates: trial,
      price,
      product: data.products.find((p) => p.id === price.product_id) ?? null,
    };
  }

  function startSubscription(txn: SandboxRecord, price: IPriceResponse): SandboxRecord {
    const started = clock.now();
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
      created_at: now(),
      updated_at: now(),
      started_at: now(),
      first_billed_at: trial ? null : now(),
      next_billed_at: period.ends_at,
      paused_at: null,
      canceled_at: null,
      // The checkout's discount stays on the subscription, as Paddle keeps it: renewals take it off while
      // it lasts (recurringDiscount below).
      discount: txn.discount_id ? { id: txn.discount_id, starts_at: now(), ends_at: null } : null,
      collection_mode: 'automatic',
      billing_details: null,
      current_billing_period: period,
      billing_cycle: cycle,
      scheduled_change: null,
      management_urls: { update_payment_method: null, cancel: 'https://sandbox-checkout.invalid/cancel' },
      items: [subscriptionItem(price, status, period, trial ? period : null, trial ? null : now())],
      custom_data: txn.custom_data ?? null,
      import_meta: null,
    };
    subscriptions.push(created);
    txn.subscription_id = created.id;
    txn.billing_period = period;
    return created;
  }

  const itemsOf = (sub: SandboxRecord) => sub.items as SubscriptionItem[];
  const periodOf = (sub: SandboxRecord) => sub.current_billing_period as Period;
  const touch = (sub: SandboxRecord) => {
    sub.updated_at = now();
  };
  const outstanding = (sub: SandboxRecord) => transactions.find((t) => t.subscription_id === sub.id && t.status === 'past_due');

  /**
   * The subscription's discount if it still applies to its next charge, as Paddle counts it: `recur`
   * false, the first payment only (a trial's first payment is the one when it ends); `recur` true, the
   * first `maximum_recurring_intervals` billed periods (null: every one). Charges already discounted are
   * counted from the subscription's transactions (a trial's zeroed checkout took nothing off).
   */
  function recurringDiscount(sub: SandboxRecord): IDiscountResponse | null {
    const id = (sub.discount as { id: string } | null)?.id;
    const discount = id ? data.discounts.find((d) => d.id === id) : undefined;
    if (!discount) return null;
    const used = transactions.filter(
      (t) => t.subscription_id === sub.id && t.discount_id === discount.id && Number((t.details as { totals: { discount: string } }).totals.discount) > 0,
    ).length;
    const allowed = discount.recur ? (discount.maximum_recurring_intervals ?? Number.POSITIVE_INFINITY) : 1;
    return used < allowed ? discount : null;
  }

  /**
   * Paddle's `next_transaction` (with `include=next_transaction`): what the subscription's next renewal
   * will charge, as renew() below will charge it: the price, less the discount while it still applies,
   * plus tax. Null when nothing more is billed (cancelled, paused, past due, or a cancellation scheduled).
   */
  function nextTransaction(sub: SandboxRecord) {
    if ((sub.status !== 'active' && sub.status !== 'trialing') || !sub.next_billed_at || sub.scheduled_change) return null;
    const price = itemsOf(sub)[0]?.price as IPriceResponse;
    const cycle = price.billing_cycle ?? { interval: 'month', frequency: 1 };
    const startsAt = new Date(sub.next_billed_at as string);
    const { details } = totalsFor([{ price, quantity: 1 }], {
      customerId: sub.customer_id as string,
      addressId: sub.address_id as string,
      currency: sub.currency_code as string,
      discount: recurringDiscount(sub),
    });
    return {
      billing_period: { starts_at: startsAt.toISOString(), ends_at: addPeriod(startsAt, cycle.interval, cycle.frequency).toISOString() },
      details,
      adjustments: [],
    };
  }

  /** One renewal of `sub`, due at its `next_billed_at`: the charge, and the next period or past due. */
  function renew(sub: SandboxRecord) {
    const startsAt = new Date(sub.next_billed_at as string);
    const price = itemsOf(sub)[0]?.price as IPriceResponse;
    const cycle = price.billing_cycle ?? { interval: 'month', frequency: 1 };
    const period = { starts_at: startsAt.toISOString(), ends_at: addPeriod(startsAt, cycle.interval, cycle.frequency).toISOString() };
    const txn = newTransaction({
      customerId: sub.customer_id as string,
      addressId: sub.address_id as string,
      lines: [{ price, quantity: 1 }],
      status: 'billed',
      origin: 'subscription_recurring',
      subscriptionId: sub.id,
      currency: sub.currency_code as string,
      billingPeriod: period,
      discount: recurringDiscount(sub),
    });
    const wasTrialing = sub.status === 'trialing';
    if (!charge(sub.id)) {
      txn.status = 'past_due';
      (txn.payments as unknown[]).push(paymentAttempt('error', 'card', cards[sub.id] ?? null));
      sub.status = 'past_due';
      sub.next_billed_at = null;
      for (const item of itemsOf(sub)) item.status = 'active';
      touch(sub);
      emit('transaction.past_due', txn);
      emit('subscription.past_due', sub);
      return;
    }
    complete(txn, 'card', cards[sub.id] ?? null);
    sub.status = 'active';
    sub.first_billed_at ??= txn.billed_at;
    sub.current_billing_period = period;
    sub.next_billed_at = period.ends_at;
    sub.items = [subscriptionItem(price, 'active', period, null, txn.billed_at as string)];
    touch(sub);
    if (wasTrialing) emit('subscription.activated', sub);
    emit('subscription.updated', sub);
    emit('transaction.completed', txn);
  }

  /** What the clock passing has made due: renewals, and cancellations scheduled for a period's end. */
  function tick() {
    const at = clock.now().getTime();
    let changed = false;
    for (const sub of subscriptions) {
      for (let guard = 0; guard < 100; guard += 1) {
        const change = sub.scheduled_change as { action: string; effective_at: string } | null;
        if (change?.action === 'cancel' && new Date(change.effective_at).getTime() <= at && sub.status !== 'canceled') {
          sub.status = 'canceled';
          sub.canceled_at = change.effective_at;
          sub.scheduled_change = null;
          sub.next_billed_at = null;
          for (const item of itemsOf(sub)) item.status = 'inactive';
          touch(sub);
          emit('subscription.canceled', sub);
          changed = true;
          break;
        }
        const due = sub.next_billed_at ? new Date(sub.next_billed_at as string).getTime() : Number.POSITIVE_INFINITY;
        if ((sub.status !== 'active' && sub.status !== 'trialing') || due > at) break;
        renew(sub);
        changed = true;
      }
    }
    if (changed) state.save();
  }

  /**
   * A change of plan as Paddle makes it with `prorated_immediately`: while trialing, the new price
   * replaces the old and is first charged when the trial ends; otherwise a new billing period starts
   * now, the full new price is charged and the unused time of the old one (to the minute) credited.
   */
  function planChange(sub: SandboxRecord, body: Record<string, unknown>) {
    if (sub.status === 'canceled') throw new SandboxError(400, 'subscription_update_when_canceled', 'The subscription is canceled');
    if (sub.status === 'past_due' || outstanding(sub)) {
      throw new SandboxError(409, 'subscription_outstanding_transaction', 'The subscription has an outstanding transaction');
    }
    if (sub.scheduled_change) throw new SandboxError(400, 'subscription_locked_pending_changes', 'The subscription has a scheduled change');
    const requested = Array.isArray(body.items) ? (body.items as { price_id?: string; quantity?: number }[]) : [];
    if (requested.length !== 1) throw invalid('items: exactly one item is supported');
    const mode = body.proration_billing_mode;
    if (mode !== 'prorated_immediately') throw invalid('proration_billing_mode: the stand-in supports prorated_immediately');
    const price = priceById(requested[0]?.price_id);
    if (!price.billing_cycle) throw invalid('items: a recurring price is required');
    const currency = sub.currency_code as string;
    const customer = { customerId: sub.customer_id as string, addressId: sub.address_id as string, currency };
    const cycle = price.billing_cycle;

    if (sub.status === 'trialing') {
      const trial = periodOf(sub);
      const nextPeriod = { starts_at: trial.ends_at, ends_at: addPeriod(new Date(trial.ends_at), cycle.interval, cycle.frequency).toISOString() };
      const next = totalsFor([{ price, quantity: 1 }], customer);
      const money = { amount: '0', currency_code: currency };
      return {
        price,
        immediate: null,
        next: { billing_period: nextPeriod, details: next.details, adjustments: [] },
        summary: { credit: money, charge: money, result: { action: 'charge', amount: '0', currency_code: currency } },
        apply: () => {
          sub.items = [subscriptionItem(price, 'trialing', trial, trial, null)];
          sub.billing_cycle = cycle;
          return null;
        },
      };
    }

    const old = itemsOf(sub)[0]?.price as IPriceResponse;
    const period = periodOf(sub);
    const nowMs = Math.floor(clock.now().getTime() / MINUTE) * MINUTE;
    const totalMinutes = Math.round((new Date(period.ends_at).getTime() - new Date(period.starts_at).getTime()) / MINUTE);
    const unusedMinutes = Math.max(0, Math.floor((new Date(period.ends_at).getTime() - nowMs) / MINUTE));
    const unused = totalFor(old, totalMinutes > 0 ? unusedMinutes / totalMinutes : 0, customer);
    const starts = new Date(nowMs);
    const newPeriod = { starts_at: starts.toISOString(), ends_at: addPeriod(starts, cycle.interval, cycle.frequency).toISOString() };
    const immediate = totalsFor([{ price, quantity: 1, proration: { rate: '1', billing_period: newPeriod } }], { ...customer, credit: unused });
    const totals = immediate.details.totals;
    const due = Number(totals.grand_total);
    const next = totalsFor([{ price, quantity: 1 }], customer);
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
        if (due > 0 && !charge(sub.id)) throw new SandboxError(400, 'subscription_payment_declined', 'The payment method was declined');
        const txn = newTransaction({
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
        complete(txn, 'card', cards[sub.id] ?? null);
        sub.items = [subscriptionItem(price, 'active', newPeriod, null, txn.billed_at as string)];
        sub.billing_cycle = cycle;
        sub.current_billing_period = newPeriod;
        sub.next_billed_at = newPeriod.ends_at;
        return txn;
      },
    };
  }

  /** The total with tax of `rate` of one period of `price` (what the unused part of a period is worth). */
  function totalFor(price: IPriceResponse, rate: number, customer: { customerId: string; addressId: string; currency: string }) {
    const { details } = totalsFor([{ price, quantity: 1, proration: { rate: rate.toFixed(6), billing_period: { starts_at: now(), ends_at: now() } } }], customer);
    return Number(details.totals.total);
  }

  function preview(sub: SandboxRecord, change: ReturnType<typeof planChange>) {
    const period = change.immediate?.billing_period ?? periodOf(sub);
    return {
      ...sub,
      items: [subscriptionItem(change.price, sub.status === 'trialing' ? 'trialing' : 'active', period, sub.status === 'trialing' ? period : null, null)],
      billing_cycle: change.price.billing_cycle,
      current_billing_period: period,
      next_billed_at: change.next.billing_period.starts_at,
      immediate_transaction: change.immediate,
      next_transaction: change.next,
      recurring_transaction_details: change.next.details,
      update_summary: change.summary,
    };
  }

  return {
    tick,
    routes: [
      {
        method: 'POST',
        pattern: /^\/transactions$/,
        handle: ({ body }) => {
          const items = Array.isArray(body.items) ? (body.items as { price_id?: string; price?: Record<string, unknown>; quantity?: number }[]) : [];
          if (items.length === 0) throw invalid('items: at least one item is required');
          const customerId = typeof body.customer_id === 'string' ? body.customer_id : null;
          if (customerId && !data.customers.some((c) => c.id === customerId)) throw notFound('Customer');
          const discountId = typeof body.discount_id === 'string' ? body.discount_id : null;
          const discount = discountId ? data.discounts.find((d) => d.id === discountId) : null;
          if (discountId && !discount) throw notFound('Discount');
          const problem = discount ? discountProblem(discount, clock.now()) : null;
          if (problem) throw new SandboxError(400, problem, `Discount ${discountId} cannot be used: ${problem}`);
          const created = newTransaction({
            customerId,
            addressId: typeof body.address_id === 'string' ? body.address_id : null,
            lines: items.map((item) => ({ price: item.price ? customPrice(item.price) : priceById(item.price_id), quantity: item.quantity ?? 1 })),
            status: customerId ? 'ready' : 'draft',
            origin: 'api',
            customData: body.custom_data,
            discount,
            // Paddle prices a transaction in the currency asked for (a price's override in it), else by address.
            currency: typeof body.currency_code === 'string' ? body.currency_code : null,
          });
          state.save();
          emit('transaction.created', created);
          return created;
        },
      },
      {
        method: 'GET',
        pattern: /^\/transactions$/,
        handle: ({ query }) => {
          const customers = query.get('customer_id')?.split(',');
          const statuses = query.get('status')?.split(',');
          const subscriptionIds = query.get('subscription_id')?.split(',');
          return list(
            transactions
              .filter(
                (t) =>
                  (!customers || customers.includes(String(t.customer_id))) &&
                  (!statuses || statuses.includes(String(t.status))) &&
                  (!subscriptionIds || subscriptionIds.includes(String(t.subscription_id))),
              )
              .slice()
              .reverse(),
          );
        },
      },
      { method: 'GET', pattern: /^\/transactions\/([\w-]+)$/, handle: (_r, [id]) => transaction(id as string) },
      {
        method: 'GET',
        pattern: /^\/transactions\/([\w-]+)\/invoice$/,
        handle: (_r, [id]) => {
          const found = transaction(id as string);
          if (found.status !== 'completed' && found.status !== 'billed') throw new SandboxError(400, 'transaction_not_billed', 'No invoice before billing');
          return { url: `${invoiceBaseUrl}/${found.id}.pdf` };
        },
      },
      {
        // Not a Paddle API path: what the stand-in's checkout calls when a test card (or PayPal) is submitted.
        method: 'POST',
        pattern: /^\/sandbox\/transactions\/([\w-]+)\/pay$/,
        handle: ({ body }, [id]) => {
          const txn = transaction(id as string);
          if (txn.status !== 'ready') throw new SandboxError(400, 'transaction_not_ready', `Transaction is ${String(txn.status)}`);
          const method = body.method === 'paypal' ? 'paypal' : 'card';
          const card = method === 'paypal' ? TEST_CARDS.success : String(body.card_number ?? '').replace(/\s/g, '');
          if (card === TEST_CARDS.declined) {
            (txn.payments as unknown[]).push(paymentAttempt('error', 'card', card));
            txn.updated_at = now();
            state.save();
            emit('transaction.payment_failed', txn);
            throw new SandboxError(402, 'payment_declined', 'The card was declined');
          }
          if (!(Object.values(TEST_CARDS) as string[]).includes(card)) throw invalid('card_number: use a test card');

          if (txn.origin === 'subscription_payment_method_change') {
            // A new card for the subscription; an outstanding renewal is collected on it at once.
            const sub = subscription(txn.subscription_id as string);
            cards[sub.id] = card;
            zeroTotals(txn);
            complete(txn, method, card);
            const unpaid = outstanding(sub);
            if (unpaid && charge(sub.id)) {
              complete(unpaid, method, card);
              const period = unpaid.billing_period as Period;
              sub.status = 'active';
              sub.current_billing_period = period;
              sub.next_billed_at = period.ends_at;
              sub.items = [subscriptionItem(itemsOf(sub)[0]?.price as IPriceResponse, 'active', period, null, now())];
              touch(sub);
            }
            state.save();
            emit('transaction.completed', txn);
            if (unpaid?.status === 'completed') {
              emit('subscription.updated', sub);
              emit('transaction.completed', unpaid);
            }
            return txn;
          }

          const recurring = (txn.items as Line[]).find((item) => item.price.billing_cycle);
          // A trial is free: the first charge comes when it ends.
          if (recurring?.price.trial_period) zeroTotals(txn);
          complete(txn, method, card);
          const started = recurring ? startSubscription(txn, recurring.price) : null;
          if (started) cards[started.id] = card;
          state.save();
          if (started) emit('subscription.created', started);
          emit('transaction.completed', txn);
          return txn;
        },
      },
      {
        // A full refund of a completed transaction (`type: full`), as Paddle's Adjustments API makes it:
        // created pending approval, then approved (Paddle reviews refunds; the stand-in approves at once),
        // each with its webhook; the transaction's adjusted totals drop to zero.
        method: 'POST',
        pattern: /^\/adjustments$/,
        handle: ({ body }) => {
          if (body.action !== 'refund') throw invalid('action: the stand-in supports refund');
          if (body.type !== 'full') throw invalid('type: the stand-in supports full refunds');
          if (typeof body.reason !== 'string' || body.reason.trim() === '') throw invalid('reason: is required');
          const txn = transaction(String(body.transaction_id ?? ''));
          if (txn.status !== 'completed') throw new SandboxError(400, 'transaction_adjustment_not_allowed', `Transaction is ${String(txn.status)}`);
          const totals = (txn.details as { totals: Totals }).totals;
          const total = Number(totals.grand_total);
          if (total <= 0) throw new SandboxError(400, 'adjustment_amount_cannot_be_zero', 'Nothing was paid on this transaction');
          if (adjustments.some((a) => a.transaction_id === txn.id && a.action === 'refund' && a.status !== 'rejected')) {
            throw new SandboxError(400, 'adjustment_amount_above_remaining_allowed', 'The transaction has been refunded already');
          }
          const created: SandboxRecord = {
            id: paddleId('adj'),
            action: 'refund',
            type: 'full',
            transaction_id: txn.id,
            subscription_id: txn.subscription_id ?? null,
            customer_id: txn.customer_id,
            reason: body.reason,
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
            created_at: now(),
            updated_at: now(),
          };
          adjustments.push(created);
          emit('adjustment.created', created);
          const approved = { ...created, status: 'approved' };
          Object.assign(created, approved);
          (txn.details as { adjusted_totals: unknown }).adjusted_totals = {
            subtotal: '0', tax: '0', total: '0', grand_total: '0', fee: '0', earnings: '0', currency_code: txn.currency_code,
          };
          txn.updated_at = now();
          state.save();
          emit('adjustment.updated', created);
          emit('transaction.updated', txn);
          return { ...created, status: 'pending_approval' };
        },
      },
      {
        method: 'GET',
        pattern: /^\/adjustments$/,
        handle: ({ query }) => {
          const transactionIds = query.get('transaction_id')?.split(',');
          const subscriptionIds = query.get('subscription_id')?.split(',');
          return list(
            adjustments.filter(
              (a) => (!transactionIds || transactionIds.includes(String(a.transaction_id))) && (!subscriptionIds || subscriptionIds.includes(String(a.subscription_id))),
            ),
          );
        },
      },
      {
        method: 'GET',
        pattern: /^\/subscriptions$/,
        handle: ({ query }) => {
          const customers = query.get('customer_id')?.split(',');
          return list(subscriptions.filter((s) => !customers || customers.includes(String(s.customer_id))));
        },
      },
      {
        method: 'GET',
        pattern: /^\/subscriptions\/([\w-]+)$/,
        handle: ({ query }, [id]) => {
          const sub = subscription(id as string);
          const include = query.get('include')?.split(',') ?? [];
          return include.includes('next_transaction') ? { ...sub, next_transaction: nextTransaction(sub) } : sub;
        },
      },
      {
        method: 'GET',
        pattern: /^\/subscriptions\/([\w-]+)\/update-payment-method-transaction$/,
        handle: (_r, [id]) => {
          const sub = subscription(id as string);
          if (sub.status === 'canceled') throw new SandboxError(400, 'subscription_update_when_canceled', 'The subscription is canceled');
          const created = newTransaction({
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
          emit('transaction.created', created);
          return created;
        },
      },
      {
        // Ends a trial now: the first charge is made and a billing period starts.
        method: 'POST',
        pattern: /^\/subscriptions\/([\w-]+)\/activate$/,
        handle: (_r, [id]) => {
          const sub = subscription(id as string);
          if (sub.status !== 'trialing') throw new SandboxError(400, 'subscription_cannot_activate', 'Only a trialing subscription can be activated');
          sub.next_billed_at = now();
          sub.current_billing_period = { starts_at: periodOf(sub).starts_at, ends_at: now() };
          renew(sub);
          state.save();
          return sub;
        },
      },
      {
        method: 'POST',
        pattern: /^\/subscriptions\/([\w-]+)\/cancel$/,
        handle: ({ body }, [id]) => {
          const found = subscription(id as string);
          if (found.status === 'canceled') throw new SandboxError(400, 'subscription_update_when_canceled', 'The subscription is canceled');
          if (body.effective_from === 'immediately') {
            found.status = 'canceled';
            found.canceled_at = now();
            found.next_billed_at = null;
            found.scheduled_change = null;
          } else {
            found.scheduled_change = { action: 'cancel', effective_at: periodOf(found).ends_at, resume_at: null };
            found.next_billed_at = null;
          }
          touch(found);
          state.save();
          emit(found.status === 'canceled' ? 'subscription.canceled' : 'subscription.updated', found);
          return found;
        },
      },
      {
        method: 'PATCH',
        pattern: /^\/subscriptions\/([\w-]+)\/preview$/,
        handle: ({ body }, [id]) => {
          const sub = subscription(id as string);
          return preview(sub, planChange(sub, body));
        },
      },
      {
        method: 'PATCH',
        pattern: /^\/subscriptions\/([\w-]+)$/,
        handle: ({ body }, [id]) => {
          const found = subscription(id as string);
          let charged: SandboxRecord | null = null;
          if (body.items !== undefined) {
            charged = planChange(found, body).apply();
          } else if ('scheduled_change' in body && body.scheduled_change === null) {
            if (found.status === 'canceled') throw new SandboxError(400, 'subscription_update_when_canceled', 'The subscription is canceled');
            found.scheduled_change = null;
            found.next_billed_at = periodOf(found).ends_at;
          }
          touch(found);
          state.save();
          emit('subscription.updated', found);
          if (charged) emit('transaction.completed', charged);
          return found;
        },
      },
    ],
  };
}
