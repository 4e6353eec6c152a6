import type { IDiscountResponse, IPriceResponse } from '@paddle/paddle-node-sdk';
import { discountAmount } from './api.js';
import { invalid, notFound } from './http.js';
import { addPeriod, itemsOf, nowOf, type Line, type PurchaseState, type SandboxRecord, type Totals } from './purchase-state.js';
import { paddleId } from './state.js';
import { taxRate } from './tax.js';

/**
 * What things cost at the stand-in, as Paddle computes it: prices (catalogue and custom ones), a
 * transaction's totals (per line, discount before tax, tax rounded per line, a credit reducing what is
 * due), the discount a subscription still gets, and the preview of its next renewal.
 */

export function priceById(state: PurchaseState, id: unknown): IPriceResponse {
  const price = state.data.prices.find((p) => p.id === id && p.status === 'active');
  if (!price) throw notFound(`Price ${String(id)}`);
  return price;
}

/**
 * A non-catalogue price given in a transaction's items: Paddle stores it as a price of type `custom`
 * (with an id, so a subscription can renew on it) that catalogue lists leave out.
 */
export function customPrice(state: PurchaseState, given: Record<string, unknown>): IPriceResponse {
  const { data } = state;
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
    created_at: nowOf(state),
    updated_at: nowOf(state),
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
export function totalsFor(
  state: PurchaseState,
  lines: Line[],
  options: { customerId: string | null; addressId: string | null; currency?: string | null; discount?: IDiscountResponse | null; credit?: number },
) {
  const { data } = state;
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

/** The total with tax of `rate` of one period of `price` (what the unused part of a period is worth). */
export function totalFor(state: PurchaseState, price: IPriceResponse, rate: number, customer: { customerId: string; addressId: string; currency: string }) {
  const { details } = totalsFor(state, [{ price, quantity: 1, proration: { rate: rate.toFixed(6), billing_period: { starts_at: nowOf(state), ends_at: nowOf(state) } } }], customer);
  return Number(details.totals.total);
}

/** A transaction that charges nothing (a trial's checkout, a payment method change). */
export function zeroTotals(txn: SandboxRecord) {
  const totals = (txn.details as { totals: Totals }).totals;
  for (const key of ['subtotal', 'discount', 'tax', 'total', 'credit', 'balance', 'grand_total', 'grand_total_tax']) totals[key] = '0';
}

/**
 * The subscription's discount if it still applies to its next charge, as Paddle counts it: `recur`
 * false, the first payment only (a trial's first payment is the one when it ends); `recur` true, the
 * first `maximum_recurring_intervals` billed periods (null: every one). Charges already discounted are
 * counted from the subscription's transactions (a trial's zeroed checkout took nothing off).
 */
export function recurringDiscount(state: PurchaseState, sub: SandboxRecord): IDiscountResponse | null {
  const id = (sub.discount as { id: string } | null)?.id;
  const discount = id ? state.data.discounts.find((d) => d.id === id) : undefined;
  if (!discount) return null;
  const used = state.transactions.filter(
    (t) => t.subscription_id === sub.id && t.discount_id === discount.id && Number((t.details as { totals: { discount: string } }).totals.discount) > 0,
  ).length;
  const allowed = discount.recur ? (discount.maximum_recurring_intervals ?? Number.POSITIVE_INFINITY) : 1;
  return used < allowed ? discount : null;
}

/**
 * Paddle's `next_transaction` (with `include=next_transaction`): what the subscription's next renewal
 * will charge, as the renewal (./lifecycle.ts) will charge it: the price, less the discount while it
 * still applies, plus tax. Null when nothing more is billed (cancelled, paused, past due, or a
 * cancellation scheduled).
 */
export function nextTransaction(state: PurchaseState, sub: SandboxRecord) {
  if ((sub.status !== 'active' && sub.status !== 'trialing') || !sub.next_billed_at || sub.scheduled_change) return null;
  const price = itemsOf(sub)[0]?.price as IPriceResponse;
  const cycle = price.billing_cycle ?? { interval: 'month', frequency: 1 };
  const startsAt = new Date(sub.next_billed_at as string);
  const { details } = totalsFor(state, [{ price, quantity: 1 }], {
    customerId: sub.customer_id as string,
    addressId: sub.address_id as string,
    currency: sub.currency_code as string,
    discount: recurringDiscount(state, sub),
  });
  return {
    billing_period: { starts_at: startsAt.toISOString(), ends_at: addPeriod(startsAt, cycle.interval, cycle.frequency).toISOString() },
    details,
    adjustments: [],
  };
}
