import { z } from 'zod';
import { catalogueTextSchema } from './billing.js';
import { CANCEL_REASONS } from './subscription-values.js';

export { CANCEL_REASONS, FINAL_NOTICE_DAYS, PAYMENT_RETRY_DAYS, type CancelReason } from './subscription-values.js';

/** `GET /subscription/user`: the user's latest subscription, or null. */
export const subscriptionSchema = z.object({
  id: z.string(),
  status: z.enum(['active', 'canceled', 'past_due', 'paused', 'trialing']),
  priceId: z.string(),
  interval: z.string(),
  currencyCode: z.string(),
  currentPeriod: z.object({ startsAt: z.string(), endsAt: z.string() }).nullable(),
  nextBilledAt: z.string().nullable(),
  trialEndsAt: z.string().nullable(),
  scheduledChange: z.object({ action: z.string(), effectiveAt: z.string() }).nullable(),
  canceledAt: z.string().nullable(),
  /**
   * Spec section 9: cancelling within 14 days of the first payment refunds it. Until when that is
   * offered, and how much it refunds (every payment of this subscription); null when it is not.
   */
  refund: z.object({ until: z.string(), amount: z.object({ amount: z.number().int(), currencyCode: z.string() }) }).nullable(),
  /**
   * Issue 46 item 1: the customer's one 14-day refund for the subscription has been used (on an earlier
   * subscription, or by an admin for them): this one cannot be refunded by cancelling, and `refund` is null
   * (for staff, `refund` still shows the window: an admin may refund on the customer's behalf).
   */
  refundUsed: z.boolean(),
  /**
   * Issue 46 item 7: Paddle's scheduled pause: from `startsAt` (the end of the period when scheduled, the
   * moment it paused once running) until `resumesAt`, or until the customer resumes (null). Null without one.
   */
  pause: z.object({ startsAt: z.string(), resumesAt: z.string().nullable() }).nullable(),
  /**
   * Issue 46 item 5: a renewal Paddle could not charge, while it retries: what is owed, since when, when
   * Paddle tries the card again (null after the last try) and when the subscription ends if nothing is paid.
   */
  pastDue: z
    .object({
      amount: z.object({ amount: z.number().int(), currencyCode: z.string() }),
      since: z.string(),
      nextRetryAt: z.string().nullable(),
      endsAt: z.string(),
    })
    .nullable(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export const webhookAckSchema = z.object({ received: z.literal(true) });

/**
 * A payment's state for the purchase history (issue 20): `paid`; `refunded` or `partially_refunded`
 * (by Paddle's adjusted totals, or the portal's approved refund); `past_due` when the charge failed and
 * Paddle is retrying; `no_charge` for a $0.00 transaction (a trial's start, a 100% discount), which has
 * nothing to invoice.
 */
export const paymentStatusSchema = z.enum(['paid', 'refunded', 'partially_refunded', 'past_due', 'no_charge']);
export type PaymentStatus = z.infer<typeof paymentStatusSchema>;

/** `GET /subscription/billing/invoice`: the user's billed transactions, newest first. */
export const invoicesResponseSchema = z.array(
  z.object({
    id: z.string(),
    /** Paddle's transaction status (completed, billed, past_due), as it was. */
    status: z.string(),
    /** What became of the payment, in a bookkeeper's words (see paymentStatusSchema). */
    paymentStatus: paymentStatusSchema,
    billedAt: z.string().nullable(),
    /** Paddle's invoice number; null until Paddle numbers the invoice (a $0.00 trial start gets none). */
    invoiceNumber: z.string().nullable(),
    /** The amount charged, tax included. */
    total: z.object({ amount: z.number().int(), currencyCode: z.string() }),
    /** The tax within `total`, in the same currency. */
    tax: z.object({ amount: z.number().int(), currencyCode: z.string() }),
    /**
     * What was bought: `kind` (a plan or a perpetual release), `release` for a perpetual licence, and
     * `interval` for a plan. `name` is the catalogue's name (English); the SPA names it from kind, release
     * and interval in the reader's language.
     */
    items: z.array(
      z.object({
        priceId: z.string().nullable(),
        name: z.string(),
        kind: z.enum(['subscription', 'perpetual']).nullable(),
        release: z.string().nullable(),
        interval: z.enum(['month', 'year']).nullable(),
        /** The catalogue's name and description per language (catalogueTextSchema in billing.ts). */
        i18n: catalogueTextSchema,
      }),
    ),
    /** A refund of this payment: asked for by the customer, or made because it was a duplicate purchase. */
    refund: z.object({ status: z.enum(['pending', 'approved', 'rejected']), reason: z.enum(['customer', 'duplicate']), amount: z.number().int() }).nullable(),
    /** This portal's endpoint that checks ownership and answers the provider's PDF link. */
    invoiceUrl: z.string(),
  }),
);
export type Invoice = z.infer<typeof invoicesResponseSchema>[number];

/** `GET /subscription/billing/invoice/{transactionId}`: the provider's short-lived link to the invoice PDF. */
export const invoiceLinkSchema = z.object({ url: z.url() });

const money = z.object({ amount: z.number().int(), currencyCode: z.string() });

/** A switch between the monthly and the yearly plan (spec section 4). */
export const planChangeRequestSchema = z.object({ interval: z.enum(['month', 'year']) });

/**
 * What a switch will cost, shown before the user confirms: the charge with tax (the new plan's full
 * price less the unused time of the current one, never its first-purchase discount), when it is made
 * (now, or when a trial ends), and the new billing cycle it starts.
 */
export const planChangePreviewSchema = z.object({
  priceId: z.string(),
  interval: z.enum(['month', 'year']),
  chargedAt: z.string(),
  charge: money,
  tax: money,
  credit: money,
  newPeriod: z.object({ startsAt: z.string(), endsAt: z.string() }),
});
export type PlanChangePreview = z.infer<typeof planChangePreviewSchema>;

/** The provider transaction the checkout opens to take a new payment method for the subscription. */
export const paymentMethodTransactionSchema = z.object({ transactionId: z.string() });

/**
 * `POST /subscription/cancel`: `refund` ends it now and refunds it, within 14 days of the first payment (once
 * per customer: REFUND_ALREADY_USED after); `reason` and `comment` say why (issue 46 item 8), both optional.
 */
export const cancelRequestSchema = z
  .object({ refund: z.boolean().optional(), reason: z.enum(CANCEL_REASONS).optional(), comment: z.string().trim().max(500).optional() })
  .strict()
  .nullish();

/**
 * `POST /subscription/pause` (issue 46 item 7, Paddle's scheduled pause): the subscription pauses at the end
 * of the billing period, until `resumeAt` (after the pause starts, within a year) or until resumed.
 */
export const pauseRequestSchema = z.object({ resumeAt: z.iso.datetime({ offset: true }).optional() }).strict().nullish();

export const subscriptionIdParamsSchema = z.object({ subscriptionId: z.string().regex(/^sub_[a-z0-9]{1,40}$/) });

/** `GET /subscription/payment-method`: how the subscription is paid (its latest captured payment). */
export const paymentMethodSchema = z
  .object({
    type: z.string(),
    card: z.object({ brand: z.string(), last4: z.string(), expiryMonth: z.number().int(), expiryYear: z.number().int() }).nullable(),
  })
  .nullable();
export type PaymentMethod = NonNullable<z.infer<typeof paymentMethodSchema>>;
