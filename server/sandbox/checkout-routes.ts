import { readFile } from 'node:fs/promises';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { z } from 'zod';
import { invoicePdf } from './invoice-pdf.js';

/** Where the browser finds the stand-in Paddle.js; the SPA loads it before `initializePaddle`. */
export const SANDBOX_SCRIPT_PATH = '/paddle-sandbox/paddle.js';

interface Options {
  /** The stand-in's base URL and API key (the server's own billing settings when the stand-in is on). */
  baseUrl: string;
  apiKey: string;
  /** The client-side token handed to the SPA; the browser's calls must carry it, as with Paddle.js. */
  clientToken: string;
}

type Json = Record<string, unknown>;
type Txn = Json & {
  id: string;
  status: string;
  currency_code: string;
  customer_id: string | null;
  custom_data: Json | null;
  discount: { id: string; code: string | null } | null;
  items: { price: Json & { id: string; name: string | null; description: string; product_id: string; billing_cycle: unknown; trial_period: unknown }; quantity: number }[];
  details: { totals: Record<string, string>; line_items: { price_id: string; totals: Record<string, string>; product: Json & { id: string; name: string; description: string | null } }[] };
  payments: { method_details?: unknown }[];
  origin?: string;
};

class SandboxCallError extends Error {
  constructor(
    readonly status: number,
    readonly error: { type: string; code: string; detail: string; documentation_url?: string },
  ) {
    super(error.detail);
  }
}

const major = (minor: string | undefined) => Number(minor ?? '0') / 100;
/** Paddle.js describes a billing cycle or trial by interval and frequency only. */
const period = (value: unknown) => {
  const { interval, frequency } = value as { interval: string; frequency: number };
  return { interval, frequency };
};

/**
 * The browser side of the Paddle stand-in, for development and tests only (never registered in
 * production): the stand-in Paddle.js and its checkout page, and the few calls they make, which this
 * server forwards to the stand-in's API with the API key the browser never sees.
 */
export const sandboxCheckoutRoutes: FastifyPluginAsync<Options> = async (app, options) => {
  const compiled = new Map<string, Promise<string>>();
  /** The browser scripts are TypeScript next to this file, compiled once on first request. */
  function script(name: 'paddle' | 'checkout'): Promise<string> {
    let found = compiled.get(name);
    if (!found) {
      found = (async () => {
        const { transform } = await import('esbuild');
        const source = await readFile(new URL(`./browser/${name}.ts`, import.meta.url), 'utf8');
        return (await transform(source, { loader: 'ts', format: 'iife', target: 'es2020' })).code;
      })();
      compiled.set(name, found);
      found.catch(() => compiled.delete(name));
    }
    return found;
  }

  async function sandbox<T>(method: string, path: string, body?: Json): Promise<T> {
    const response = await fetch(`${options.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const json = (await response.json()) as { data?: T; error?: SandboxCallError['error'] };
    if (!response.ok || json.data === undefined) {
      throw new SandboxCallError(response.status, json.error ?? { type: 'api_error', code: 'internal_error', detail: 'No answer' });
    }
    return json.data;
  }

  /** A transaction as Paddle.js describes a checkout in its events (totals in major units). */
  function checkoutData(txn: Txn, email: string | null): Json {
    const totals = txn.details.totals;
    const trialing = txn.status !== 'completed' && txn.items.some((item) => item.price.trial_period);
    const items = txn.details.line_items.map((line, index) => {
      const price = txn.items[index]?.price;
      const lineTotals = { subtotal: major(line.totals.subtotal), discount: major(line.totals.discount), tax: major(line.totals.tax), total: major(line.totals.total) };
      return {
        price_id: line.price_id,
        price_name: price?.name ?? price?.description ?? null,
        product: { id: line.product.id, name: line.product.name, description: line.product.description ?? undefined },
        quantity: txn.items[index]?.quantity ?? 1,
        totals: trialing && price?.trial_period ? { subtotal: 0, discount: 0, tax: 0, total: 0 } : lineTotals,
        ...(price?.billing_cycle ? { billing_cycle: period(price.billing_cycle), recurring_totals: lineTotals } : {}),
        ...(price?.trial_period ? { trial_period: period(price.trial_period) } : {}),
      };
    });
    const full = { subtotal: major(totals.subtotal), discount: major(totals.discount), tax: major(totals.tax), total: major(totals.total) };
    const dueNow = trialing ? { subtotal: 0, discount: 0, tax: 0, total: 0, balance: 0, credit: 0 } : { ...full, balance: major(totals.balance), credit: major(totals.credit) };
    const method = txn.payments.at(-1)?.method_details as { type: string; card: unknown } | undefined;
    return {
      id: `che_${txn.id.slice(4)}`,
      transaction_id: txn.id,
      status: txn.status,
      custom_data: txn.custom_data,
      currency_code: txn.currency_code,
      customer: { id: txn.customer_id, email, address: null, business: null },
      items,
      totals: dueNow,
      ...(txn.items.some((item) => item.price.billing_cycle) ? { recurring_totals: full } : {}),
      payment: { method_details: method ?? { type: 'none', card: null } },
      settings: { display_mode: 'inline', theme: 'dark' },
      ...(txn.discount ? { discount: { id: txn.discount.id, code: txn.discount.code ?? '' } } : {}),
      upsell: null,
      // Not in Paddle.js's data: tells the stand-in's frame to show Paddle's update-payment-method form
      // (a card to save, no order summary) rather than a purchase.
      ...(txn.origin === 'subscription_payment_method_change' ? { sandbox_purpose: 'payment-method-change' } : {}),
    };
  }

  async function describe(txn: Txn): Promise<Json> {
    const customer = txn.customer_id ? await sandbox<{ email: string }>('GET', `/customers/${txn.customer_id}`) : null;
    return checkoutData(txn, customer?.email ?? null);
  }

  const tokenBody = z.object({ token: z.string() }).passthrough();

  /** The browser's calls: checked for the client token; answered in Paddle's envelope. */
  function browserCall<T extends z.ZodTypeAny>(path: string, schema: T, handle: (body: z.infer<T>) => Promise<unknown>) {
    app.post(path, async (request, reply) => {
      const parsed = tokenBody.and(schema).safeParse(request.body);
      if (!parsed.success) return reply.code(400).send({ error: { type: 'request_error', code: 'invalid_field', detail: parsed.error.message } });
      if (parsed.data.token !== options.clientToken) {
        return reply.code(403).send({ error: { type: 'request_error', code: 'forbidden', detail: 'Invalid client-side token' } });
      }
      try {
        return { data: await handle(parsed.data) };
      } catch (error) {
        if (error instanceof SandboxCallError) return reply.code(error.status).send({ error: error.error });
        throw error;
      }
    });
  }

  const frameable = (reply: FastifyReply) =>
    reply
      .header('content-security-policy', "default-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'self'")
      .header('x-frame-options', 'SAMEORIGIN')
      .header('cache-control', 'no-store');

  app.get('/paddle.js', async (_request, reply) => {
    reply.header('cache-control', 'no-cache').type('text/javascript; charset=utf-8');
    return script('paddle');
  });
  app.get('/checkout.js', async (_request, reply) => {
    frameable(reply).type('text/javascript; charset=utf-8');
    return script('checkout');
  });
  app.get('/checkout', async (_request, reply) =>
    frameable(reply)
      .type('text/html; charset=utf-8')
      .send(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
          '<title>Checkout (Paddle stand-in)</title></head><body><p>Loading checkout…</p><script src="checkout.js"></script></body></html>',
      ),
  );

  // Invoice PDFs of billed transactions (Paddle's links are unguessable and short-lived; ids stand in).
  app.get<{ Params: { id: string } }>('/invoices/:id', async (request, reply) => {
    const match = /^(txn_[a-z0-9]{1,40})\.pdf$/.exec(request.params.id);
    if (!match?.[1]) return reply.code(404).send({ error: { type: 'request_error', code: 'not_found', detail: 'Invoice not found' } });
    try {
      const txn = await sandbox<Txn & { invoice_number: string | null; billed_at: string | null }>('GET', `/transactions/${match[1]}`);
      if (!txn.invoice_number) return reply.code(404).send({ error: { type: 'request_error', code: 'not_found', detail: 'Not billed' } });
      const customer = txn.customer_id ? await sandbox<{ email: string }>('GET', `/customers/${txn.customer_id}`) : null;
      const money = (minor: string | undefined) =>
        new Intl.NumberFormat('en-US', { style: 'currency', currency: txn.currency_code }).format(Number(minor ?? '0') / 100);
      const pdf = invoicePdf({
        number: txn.invoice_number,
        date: (txn.billed_at ?? '').slice(0, 10),
        customerEmail: customer?.email ?? '',
        lines: txn.details.line_items.map((line, index) => ({
          name: txn.items[index]?.price.name ?? txn.items[index]?.price.description ?? line.price_id,
          amount: money(line.totals.subtotal),
        })),
        tax: money(txn.details.totals.tax),
        total: money(txn.details.totals.grand_total),
      });
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="invoice-${txn.invoice_number}.pdf"`)
        .header('cache-control', 'no-store')
        .send(pdf);
    } catch (error) {
      if (error instanceof SandboxCallError) return reply.code(error.status).send({ error: error.error });
      throw error;
    }
  });

  browserCall(
    '/api/checkout',
    z.object({
      transactionId: z.string().nullish(),
      items: z.array(z.object({ priceId: z.string(), quantity: z.number().int().positive().optional() })).nullish(),
      customerId: z.string().nullish(),
      addressId: z.string().nullish(),
      customData: z.record(z.string(), z.unknown()).nullish(),
      discountId: z.string().nullish(),
      discountCode: z.string().nullish(),
    }),
    async (body) => {
      if (body.transactionId) return { transactionId: (await sandbox<Txn>('GET', `/transactions/${body.transactionId}`)).id };
      if (!body.items?.length) throw new SandboxCallError(400, { type: 'request_error', code: 'invalid_field', detail: 'items or transactionId is required' });
      let discountId = body.discountId ?? null;
      if (!discountId && body.discountCode) {
        const [found] = await sandbox<{ id: string }[]>('GET', `/discounts?code=${encodeURIComponent(body.discountCode)}&status=active`);
        if (!found) throw new SandboxCallError(404, { type: 'request_error', code: 'not_found', detail: 'Discount not found' });
        discountId = found.id;
      }
      let addressId = body.addressId ?? null;
      if (!addressId && body.customerId) {
        // As Paddle does for a known customer: their saved address.
        const [address] = await sandbox<{ id: string }[]>('GET', `/customers/${body.customerId}/addresses?status=active`);
        addressId = address?.id ?? null;
      }
      const created = await sandbox<Txn>('POST', '/transactions', {
        items: body.items.map((item) => ({ price_id: item.priceId, quantity: item.quantity ?? 1 })),
        customer_id: body.customerId ?? null,
        address_id: addressId,
        custom_data: body.customData ?? null,
        discount_id: discountId,
      });
      return { transactionId: created.id };
    },
  );

  browserCall('/api/transaction', z.object({ transactionId: z.string() }), async (body) =>
    describe(await sandbox<Txn>('GET', `/transactions/${body.transactionId}`)),
  );

  browserCall(
    '/api/pay',
    z.object({ transactionId: z.string(), method: z.enum(['card', 'paypal']).optional(), cardNumber: z.string().optional(), expiry: z.string().max(10).optional() }),
    async (body) => {
      const paid = await sandbox<Txn>(
        'POST',
        `/sandbox/transactions/${body.transactionId}/pay`,
        // The expiry entered is the saved card's (issue 46 item 6: the warning 30 days before it).
        body.method === 'paypal' ? { method: 'paypal' } : { card_number: body.cardNumber ?? '', expiry: body.expiry ?? '' },
      );
      return describe(paid);
    },
  );

  browserCall(
    '/api/price-preview',
    z.object({
      items: z.array(z.object({ priceId: z.string(), quantity: z.number().int().positive() })),
      customerId: z.string().optional(),
      addressId: z.string().optional(),
      businessId: z.string().optional(),
      currencyCode: z.string().optional(),
      discountId: z.string().optional(),
      address: z.object({ countryCode: z.string(), postalCode: z.string().optional() }).optional(),
    }),
    async (body) =>
      sandbox('POST', '/pricing-preview', {
        items: body.items.map((item) => ({ price_id: item.priceId, quantity: item.quantity })),
        customer_id: body.customerId,
        address_id: body.addressId,
        business_id: body.businessId,
        currency_code: body.currencyCode,
        discount_id: body.discountId,
        address: body.address ? { country_code: body.address.countryCode, postal_code: body.address.postalCode } : undefined,
      }),
  );
};
