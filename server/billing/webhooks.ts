import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/** Paddle allows five seconds between signing and checking. */
export const SIGNATURE_TOLERANCE_SECONDS = 5;

/**
 * Checks a `Paddle-Signature` header against the raw body: the HMAC must match (compared in constant
 * time) and the timestamp be at most five seconds old by the wall clock, which is what Paddle signs with.
 */
export function isSignatureValid(rawBody: string, header: string | undefined, secret: string, wallClockMs: number): boolean {
  if (!header || !secret) return false;
  const parts = Object.fromEntries(header.split(';').map((part) => part.split('=', 2) as [string, string]));
  const ts = Number(parts.ts);
  const given = parts.h1;
  if (!Number.isInteger(ts) || typeof given !== 'string' || !/^[0-9a-f]{64}$/.test(given)) return false;
  if (Math.abs(wallClockMs / 1000 - ts) > SIGNATURE_TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha256', secret).update(`${ts}:${rawBody}`).digest();
  return timingSafeEqual(expected, Buffer.from(given, 'hex'));
}

/** The envelope of every Paddle notification. */
export const eventSchema = z.object({
  event_id: z.string().min(1).max(64),
  event_type: z.string().min(1).max(64),
  occurred_at: z.iso.datetime({ offset: true }),
  data: z.record(z.string(), z.unknown()),
});
export type PaddleEvent = z.infer<typeof eventSchema>;

const period = z.object({ starts_at: z.string(), ends_at: z.string() }).nullish();

/** The fields of a subscription event the portal keeps. */
export const subscriptionDataSchema = z.object({
  id: z.string(),
  status: z.string(),
  customer_id: z.string(),
  currency_code: z.string(),
  created_at: z.string(),
  next_billed_at: z.string().nullish(),
  canceled_at: z.string().nullish(),
  paused_at: z.string().nullish(),
  billing_cycle: z.object({ interval: z.string(), frequency: z.number() }),
  current_billing_period: period,
  scheduled_change: z.object({ action: z.string(), effective_at: z.string(), resume_at: z.string().nullish() }).nullish(),
  items: z
    .array(z.object({ price: z.object({ id: z.string() }), trial_dates: period }))
    .min(1),
});

const amount = z.string().regex(/^-?\d+$/);

/** The fields of a transaction event the portal keeps: the payment, in minor units, and what it bought. */
export const transactionDataSchema = z.object({
  id: z.string(),
  status: z.string(),
  customer_id: z.string().nullish(),
  subscription_id: z.string().nullish(),
  origin: z.string(),
  currency_code: z.string(),
  created_at: z.string(),
  billed_at: z.string().nullish(),
  details: z.object({
    totals: z.object({ subtotal: amount, discount: amount, tax: amount, grand_total: amount }),
    // Each line names its product; a perpetual product carries its release in custom_data.
    line_items: z
      .array(
        z.object({
          price_id: z.string(),
          product: z.object({ id: z.string(), custom_data: z.record(z.string(), z.unknown()).nullish() }).nullish(),
        }),
      )
      .optional(),
  }),
  items: z.array(z.object({ price: z.object({ id: z.string(), product_id: z.string() }), quantity: z.number() })),
  /**
   * The attempts to collect it: a failed renewal's tries (issue 46 item 5) and the card it was captured
   * on (item 6). Paddle sends them on every transaction event; older payloads may lack them.
   */
  payments: z
    .array(
      z.object({
        status: z.string(),
        created_at: z.string(),
        method_details: z
          .object({ type: z.string(), card: z.object({ last4: z.string(), expiry_month: z.number().int(), expiry_year: z.number().int() }).nullish() })
          .nullish(),
      }),
    )
    .nullish(),
});

/**
 * The fields of an adjustment event the portal keeps: which payment it refunds (or a bank takes back, action
 * `chargeback`), how far it got, and how much (issue 46 item 9; older payloads may lack the totals).
 */
export const adjustmentDataSchema = z.object({
  id: z.string(),
  action: z.string(),
  transaction_id: z.string(),
  status: z.string(),
  created_at: z.string().nullish(),
  totals: z.object({ total: amount, currency_code: z.string() }).nullish(),
});
