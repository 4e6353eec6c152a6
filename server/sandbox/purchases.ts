import { randomUUID } from 'node:crypto';
import type { IPriceResponse } from '@paddle/paddle-node-sdk';
import type { Clock } from '../clock.js';
import { invalid, list, notFound, SandboxError, type Route } from './http.js';
import { paddleId, type SandboxState } from './state.js';
import { taxRate } from './tax.js';

/** Test cards of the stand-in's checkout: this one succeeds, the declined one fails like a bank refusal. */
export const TEST_CARDS = { success: '4242424242424242', declined: '4000000000000002' } as const;

export type SandboxRecord = Record<string, unknown> & { id: string };
export type EmitEvent = (type: string, data: SandboxRecord) => void;

function addPeriod(start: Date, interval: string, frequency: number): Date {
  const next = new Date(start.getTime());
  if (interval === 'day') next.setUTCDate(next.getUTCDate() + frequency);
  else if (interval === 'week') next.setUTCDate(next.getUTCDate() + 7 * frequency);
  else if (interval === 'month') next.setUTCMonth(next.getUTCMonth() + frequency);
  else next.setUTCFullYear(next.getUTCFullYear() + frequency);
  return next;
}

/**
 * Transactions and subscriptions of the stand-in: checkout transactions, paying them with a test card
 * (the stand-in's checkout calls `POST /sandbox/transactions/{id}/pay`), the subscription a paid
 * recurring item starts (with the price's trial), cancelling at the period's end and continuing, and the
 * webhooks Paddle sends for each.
 */
export function purchaseRoutes(state: SandboxState, clock: Clock, emit: EmitEvent): Route[] {
  const data = state.data as typeof state.data & { transactions?: SandboxRecord[]; subscriptions?: SandboxRecord[] };
  data.transactions ??= [];
  data.subscriptions ??= [];
  const transactions = data.transactions;
  const subscriptions = data.subscriptions;
  const now = () => clock.now().toISOString();

  const priceById = (id: unknown): IPriceResponse => {
    const price = data.prices.find((p) => p.id === id && p.status === 'active');
    if (!price) throw notFound(`Price ${String(id)}`);
    return price;
  };
  const transaction = (id: string) => transactions.find((t) => t.id === id) ?? (() => { throw notFound('Transaction'); })();
  const subscription = (id: string) => subscriptions.find((s) => s.id === id) ?? (() => { throw notFound('Subscription'); })();

  function totalsFor(items: { price: IPriceResponse; quantity: number }[], customerId: string | null, addressId: string | null) {
    const address = addressId ? data.addresses.find((a) => a.id === addressId && a.customer_id === customerId) : undefined;
    const business = data.businesses.find((b) => b.customer_id === customerId && b.status === 'active');
    const country = address?.country_code ?? null;
    const rate = taxRate(country, business ? { taxIdentifier: business.tax_identifier ?? null } : null);
    const override = (price: IPriceResponse) =>
      price.unit_price_overrides?.find((o) => country !== null && (o.country_codes as string[]).includes(country))?.unit_price ?? price.unit_price;
    const currency = items[0] ? override(items[0].price).currency_code : 'USD';
    const lineItems = items.map(({ price, quantity }) => {
      const subtotal = Number(override(price).amount) * quantity;
      const tax = Math.round((subtotal * rate) / 100);
      return {
        id: paddleId('txnitm'),
        price_id: price.id,
        quantity,
        tax_rate: String(rate / 100),
        unit_totals: { subtotal: String(subtotal / quantity), discount: '0', tax: String(tax / quantity), total: String((subtotal + tax) / quantity) },
        totals: { subtotal: String(subtotal), discount: '0', tax: String(tax), total: String(subtotal + tax) },
        product: data.products.find((p) => p.id === price.product_id) ?? null,
        proration: null,
      };
    });
    const sum = (field: 'subtotal' | 'tax' | 'total') => lineItems.reduce((n, l) => n + Number(l.totals[field]), 0);
    return {
      currency,
      details: {
        tax_rates_used: [{ tax_rate: String(rate / 100), totals: { subtotal: String(sum('subtotal')), discount: '0', tax: String(sum('tax')), total: String(sum('total')) } }],
        totals: {
          subtotal: String(sum('subtotal')),
          discount: '0',
          tax: String(sum('tax')),
          total: String(sum('total')),
          credit: '0',
          credit_to_balance: '0',
          balance: String(sum('total')),
          grand_total: String(sum('total')),
          grand_total_tax: String(sum('tax')),
          fee: null,
          earnings: null,
          currency_code: currency,
        },
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
    items: { price: IPriceResponse; quantity: number }[];
    status: string;
    origin: string;
    subscriptionId?: string | null;
    customData?: unknown;
    zeroTotals?: boolean;
  }): SandboxRecord {
    const { currency, details } = totalsFor(fields.items, fields.customerId, fields.addressId);
    if (fields.zeroTotals) {
      for (const key of ['subtotal', 'tax', 'total', 'balance', 'grand_total', 'grand_total_tax'] as const) details.totals[key] = '0';
    }
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
      billing_period: null,
      currency_code: currency,
      discount_id: null,
      created_at: now(),
      updated_at: now(),
      billed_at: null,
      revised_at: null,
      items: fields.items.map(({ price, quantity }) => ({ price, quantity, proration: null })),
      details,
      payments: [],
      checkout: { url: `https://sandbox-checkout.invalid/?_ptxn=${id}` },
    };
    transactions.push(created);
    return created;
  }

  function complete(txn: SandboxRecord) {
    txn.status = 'completed';
    txn.billed_at = now();
    txn.updated_at = now();
    txn.invoice_id = paddleId('inv');
    txn.invoice_number = `SBX-${String(transactions.indexOf(txn) + 1).padStart(5, '0')}`;
    (txn.payments as unknown[]).push({ payment_attempt_id: randomUUID(), status: 'captured', created_at: now(), captured_at: now(), method_details: { type: 'card', card: { type: 'visa', last4: '4242', expiry_month: 12, expiry_year: 2030, cardholder_name: 'Test' } } });
  }

  function startSubscription(txn: SandboxRecord, price: IPriceResponse): SandboxRecord {
    const started = clock.now();
    const trial = price.trial_period;
    const cycle = price.billing_cycle ?? { interval: 'month', frequency: 1 };
    const periodEnd = trial ? addPeriod(started, trial.interval, trial.frequency) : addPeriod(started, cycle.interval, cycle.frequency);
    const product = data.products.find((p) => p.id === price.product_id);
    const created: SandboxRecord = {
      id: paddleId('sub'),
      status: trial ? 'trialing' : 'active',
      customer_id: txn.customer_id,
      address_id: txn.address_id,
      business_id: null,
      currency_code: txn.currency_code,
      created_at: now(),
      updated_at: now(),
      started_at: now(),
      first_billed_at: trial ? null : now(),
      next_billed_at: periodEnd.toISOString(),
      paused_at: null,
      canceled_at: null,
      discount: null,
      collection_mode: 'automatic',
      billing_details: null,
      current_billing_period: { starts_at: started.toISOString(), ends_at: periodEnd.toISOString() },
      billing_cycle: cycle,
      scheduled_change: null,
      management_urls: { update_payment_method: null, cancel: 'https://sandbox-checkout.invalid/cancel' },
      items: [
        {
          status: trial ? 'trialing' : 'active',
          quantity: 1,
          recurring: true,
          created_at: now(),
          updated_at: now(),
          previously_billed_at: trial ? null : now(),
          next_billed_at: periodEnd.toISOString(),
          trial_dates: trial ? { starts_at: started.toISOString(), ends_at: periodEnd.toISOString() } : null,
          price,
          product,
        },
      ],
      custom_data: txn.custom_data ?? null,
      import_meta: null,
    };
    subscriptions.push(created);
    txn.subscription_id = created.id;
    return created;
  }

  return [
    {
      method: 'POST',
      pattern: /^\/transactions$/,
      handle: ({ body }) => {
        const items = Array.isArray(body.items) ? (body.items as { price_id?: string; quantity?: number }[]) : [];
        if (items.length === 0) throw invalid('items: at least one item is required');
        const customerId = typeof body.customer_id === 'string' ? body.customer_id : null;
        if (customerId && !data.customers.some((c) => c.id === customerId)) throw notFound('Customer');
        const created = newTransaction({
          customerId,
          addressId: typeof body.address_id === 'string' ? body.address_id : null,
          items: items.map((item) => ({ price: priceById(item.price_id), quantity: item.quantity ?? 1 })),
          status: customerId ? 'ready' : 'draft',
          origin: 'api',
          customData: body.custom_data,
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
        return { url: `https://sandbox-invoices.invalid/${found.id}.pdf` };
      },
    },
    {
      // Not a Paddle API path: what the stand-in's checkout calls when a test card is submitted.
      method: 'POST',
      pattern: /^\/sandbox\/transactions\/([\w-]+)\/pay$/,
      handle: ({ body }, [id]) => {
        const txn = transaction(id as string);
        if (txn.status !== 'ready') throw new SandboxError(400, 'transaction_not_ready', `Transaction is ${String(txn.status)}`);
        const card = String(body.card_number ?? '').replace(/\s/g, '');
        if (card === TEST_CARDS.declined) {
          (txn.payments as unknown[]).push({ payment_attempt_id: randomUUID(), status: 'error', error_code: 'declined', created_at: now() });
          txn.updated_at = now();
          state.save();
          emit('transaction.payment_failed', txn);
          throw new SandboxError(402, 'payment_declined', 'The card was declined');
        }
        if (card !== TEST_CARDS.success) throw invalid('card_number: use a test card');
        const recurring = (txn.items as { price: IPriceResponse }[]).find((item) => item.price.billing_cycle);
        const startsTrial = Boolean(recurring?.price.trial_period);
        if (startsTrial) {
          // A trial is free: the first charge comes when it ends.
          for (const key of ['subtotal', 'tax', 'total', 'balance', 'grand_total', 'grand_total_tax'] as const) {
            (txn.details as { totals: Record<string, string> }).totals[key] = '0';
          }
        }
        complete(txn);
        const started = recurring ? startSubscription(txn, recurring.price) : null;
        state.save();
        if (started) emit('subscription.created', started);
        emit('transaction.completed', txn);
        return txn;
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
    { method: 'GET', pattern: /^\/subscriptions\/([\w-]+)$/, handle: (_r, [id]) => subscription(id as string) },
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
          const period = found.current_billing_period as { ends_at: string };
          found.scheduled_change = { action: 'cancel', effective_at: period.ends_at, resume_at: null };
          found.next_billed_at = null;
        }
        found.updated_at = now();
        state.save();
        emit(found.status === 'canceled' ? 'subscription.canceled' : 'subscription.updated', found);
        return found;
      },
    },
    {
      method: 'PATCH',
      pattern: /^\/subscriptions\/([\w-]+)$/,
      handle: ({ body }, [id]) => {
        const found = subscription(id as string);
        if ('scheduled_change' in body && body.scheduled_change === null) {
          if (found.status === 'canceled') throw new SandboxError(400, 'subscription_update_when_canceled', 'The subscription is canceled');
          found.scheduled_change = null;
          found.next_billed_at = (found.current_billing_period as { ends_at: string }).ends_at;
        }
        found.updated_at = now();
        state.save();
        emit('subscription.updated', found);
        return found;
      },
    },
  ];
}
