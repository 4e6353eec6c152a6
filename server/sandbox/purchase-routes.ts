import { discountProblem } from './api.js';
import { invalid, list, notFound, SandboxError, type Route } from './http.js';
import { chargeback } from './dunning.js';
import {
  activateSubscription,
  cancelSubscription,
  createTransaction,
  expiryOf,
  payTransaction,
  paymentMethodTransaction,
  previewPlanChange,
  refundTransaction,
  TEST_CARDS,
  updateSubscription,
} from './lifecycle.js';
import { pauseSubscription, resumeSubscription } from './pauses.js';
import { customPrice, nextTransaction, priceById } from './pricing.js';
import { subscriptionOf, transactionOf, type PurchaseState } from './purchase-state.js';

/**
 * The HTTP surface of the stand-in's purchases, as the Paddle SDK and the stand-in's checkout call it:
 * transactions (create, list, read, invoice, pay), adjustments (full refunds) and subscriptions (list,
 * read, activate, cancel, pause, resume, preview and make a plan change, withdraw a cancellation or a
 * pause, the payment method update), and the stand-in's own controls: paying a checkout, and a bank's
 * chargeback. Each route reads its request and calls ./lifecycle.ts, ./pauses.ts, ./dunning.ts or ./pricing.ts.
 */
export function purchaseRoutes(state: PurchaseState): Route[] {
  const { data, transactions, subscriptions, adjustments, clock } = state;
  return [
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
        return createTransaction(state, {
          customerId,
          addressId: typeof body.address_id === 'string' ? body.address_id : null,
          lines: items.map((item) => ({ price: item.price ? customPrice(state, item.price) : priceById(state, item.price_id), quantity: item.quantity ?? 1 })),
          status: customerId ? 'ready' : 'draft',
          origin: 'api',
          customData: body.custom_data,
          discount,
          // Paddle prices a transaction in the currency asked for (a price's override in it), else by address.
          currency: typeof body.currency_code === 'string' ? body.currency_code : null,
        });
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
    { method: 'GET', pattern: /^\/transactions\/([\w-]+)$/, handle: (_r, [id]) => transactionOf(state, id as string) },
    {
      method: 'GET',
      pattern: /^\/transactions\/([\w-]+)\/invoice$/,
      handle: (_r, [id]) => {
        const found = transactionOf(state, id as string);
        if (found.status !== 'completed' && found.status !== 'billed') throw new SandboxError(400, 'transaction_not_billed', 'No invoice before billing');
        return { url: `${state.invoiceBaseUrl}/${found.id}.pdf` };
      },
    },
    {
      // Not a Paddle API path: what the stand-in's checkout calls when a test card (or PayPal) is submitted.
      method: 'POST',
      pattern: /^\/sandbox\/transactions\/([\w-]+)\/pay$/,
      handle: ({ body }, [id]) => {
        const txn = transactionOf(state, id as string);
        const method = body.method === 'paypal' ? 'paypal' : 'card';
        const card = method === 'paypal' ? TEST_CARDS.success : String(body.card_number ?? '').replace(/\s/g, '');
        return payTransaction(state, txn, method, card, expiryOf(body.expiry));
      },
    },
    {
      // Not a Paddle API path: the stand-in's control for a bank taking a payment back (or giving it back).
      method: 'POST',
      pattern: /^\/sandbox\/transactions\/([\w-]+)\/(chargeback|chargeback-reverse)$/,
      handle: (_r, [id, action]) => chargeback(state, id as string, action === 'chargeback-reverse'),
    },
    {
      method: 'POST',
      pattern: /^\/adjustments$/,
      handle: ({ body }) => {
        if (body.action !== 'refund') throw invalid('action: the stand-in supports refund');
        if (body.type !== 'full') throw invalid('type: the stand-in supports full refunds');
        if (typeof body.reason !== 'string' || body.reason.trim() === '') throw invalid('reason: is required');
        return refundTransaction(state, transactionOf(state, String(body.transaction_id ?? '')), body.reason);
      },
    },
    {
      method: 'GET',
      pattern: /^\/adjustments$/,
      handle: ({ query }) => {
        const transactionIds = query.get('transaction_id')?.split(',');
        const subscriptionIds = query.get('subscription_id')?.split(',');
        // Paddle's `action` filter: refunds apart from a bank's chargebacks.
        const actions = query.get('action')?.split(',');
        return list(
          adjustments.filter(
            (a) =>
              (!transactionIds || transactionIds.includes(String(a.transaction_id))) &&
              (!subscriptionIds || subscriptionIds.includes(String(a.subscription_id))) &&
              (!actions || actions.includes(String(a.action))),
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
        const sub = subscriptionOf(state, id as string);
        const include = query.get('include')?.split(',') ?? [];
        return include.includes('next_transaction') ? { ...sub, next_transaction: nextTransaction(state, sub) } : sub;
      },
    },
    {
      method: 'GET',
      pattern: /^\/subscriptions\/([\w-]+)\/update-payment-method-transaction$/,
      handle: (_r, [id]) => paymentMethodTransaction(state, subscriptionOf(state, id as string)),
    },
    {
      method: 'POST',
      pattern: /^\/subscriptions\/([\w-]+)\/activate$/,
      handle: (_r, [id]) => activateSubscription(state, subscriptionOf(state, id as string)),
    },
    {
      method: 'POST',
      pattern: /^\/subscriptions\/([\w-]+)\/cancel$/,
      handle: ({ body }, [id]) => cancelSubscription(state, subscriptionOf(state, id as string), body.effective_from === 'immediately'),
    },
    {
      method: 'POST',
      pattern: /^\/subscriptions\/([\w-]+)\/pause$/,
      handle: ({ body }, [id]) => pauseSubscription(state, subscriptionOf(state, id as string), body),
    },
    {
      method: 'POST',
      pattern: /^\/subscriptions\/([\w-]+)\/resume$/,
      handle: ({ body }, [id]) => resumeSubscription(state, subscriptionOf(state, id as string), body),
    },
    {
      method: 'PATCH',
      pattern: /^\/subscriptions\/([\w-]+)\/preview$/,
      handle: ({ body }, [id]) => previewPlanChange(state, subscriptionOf(state, id as string), body),
    },
    {
      method: 'PATCH',
      pattern: /^\/subscriptions\/([\w-]+)$/,
      handle: ({ body }, [id]) => updateSubscription(state, subscriptionOf(state, id as string), body),
    },
  ];
}
