import { z } from 'zod';

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
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export const webhookAckSchema = z.object({ received: z.literal(true) });

/** `GET /subscription/billing/invoice`: the user's billed transactions, newest first. */
export const invoicesResponseSchema = z.array(
  z.object({
    id: z.string(),
    status: z.string(),
    billedAt: z.string().nullable(),
    invoiceNumber: z.string().nullable(),
    total: z.object({ amount: z.number().int(), currencyCode: z.string() }),
    items: z.array(z.object({ priceId: z.string().nullable(), name: z.string() })),
    /** This portal's link, which checks ownership and forwards to the provider's PDF. */
    invoiceUrl: z.string(),
  }),
);
