import { z } from 'zod';
import { moneySchema } from './billing.js';
import { entitlementSchema, licenceEntitlementSchema } from './licensing.js';
import { paymentMethodSchema, subscriptionSchema } from './subscription.js';

/** Parts of the overview read from the payment provider; when it does not answer they are listed here, the rest still shows. */
export const OVERVIEW_PARTS = ['nextCharge', 'paymentMethod', 'price'] as const;

/**
 * `GET /users/me/overview` (issue 20, the account home): what the user holds and what comes next.
 * `entitlement` is exactly what the desktop API answers at this moment (one function computes both).
 */
export const overviewSchema = z.object({
  entitlement: entitlementSchema,
  /** The latest subscription (a cancelled one too, so its end can be told), or null. */
  subscription: z
    .object({
      status: subscriptionSchema.shape.status,
      interval: z.enum(['month', 'year']).nullable(),
      /** The catalogue's name of the plan's price (English; the page names the plan by its interval). */
      planName: z.string().nullable(),
      /** The plan's price per interval, excluding tax, in the subscription's currency; null when unknown. */
      price: moneySchema.nullable(),
      /** The next charge: its date, and its amount when the price is known; null when nothing will be charged. */
      nextCharge: z.object({ at: z.string(), amount: moneySchema.nullable() }).nullable(),
      trialEndsAt: z.string().nullable(),
      /** When a cancelled subscription or trial ends (or ended). */
      endsAt: z.string().nullable(),
      /** Issue 46 item 5: an overdue renewal, with when Paddle tries the card again (as `GET /subscription/user`). */
      pastDue: subscriptionSchema.shape.pastDue,
      /** Issue 46 item 7: a scheduled or running pause. */
      pause: subscriptionSchema.shape.pause,
    })
    .nullable(),
  /** How the subscription is paid (as `GET /subscription/payment-method` says); null without one or before the first payment. */
  paymentMethod: paymentMethodSchema,
  seats: z.object({ used: z.number().int(), limit: z.number().int() }),
  licences: z.array(licenceEntitlementSchema),
  /** End of the coupon access running now, or null. */
  accessEndsAt: z.string().nullable(),
  unavailable: z.array(z.enum(OVERVIEW_PARTS)),
});
export type Overview = z.infer<typeof overviewSchema>;
