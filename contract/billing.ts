import { z } from 'zod';
import { releaseSchema } from './licensing.js';

// --- Localized catalogue (issue 20, item 9) ---

/** A catalogue entry's name and description in one language. */
export const localizedTextSchema = z.object({ name: z.string(), description: z.string().nullable() });

/**
 * A product's or plan's name and description in every interface language (spec section 1: en and de).
 * Both languages travel in every answer and the SPA picks the reader's (src/billing/catalogueText.ts):
 * the language is the URL's (/de/...) and switches without a reload, so one cached answer serves both and
 * the answer never depends on a request header. `de` falls back to the English when the catalogue has no
 * German text.
 */
export const catalogueTextSchema = z.object({ en: localizedTextSchema, de: localizedTextSchema });
export type CatalogueText = z.infer<typeof catalogueTextSchema>;

/**
 * A discount's description (its name on offers and in the checkout) in every interface language, chosen by
 * the SPA like a product's (src/billing/catalogueText.ts, discountText); `de` is the English when the
 * catalogue has no German (issue 48 item 4: tests/unit/german-voice.test.ts holds the stand-in's to both).
 */
export const discountTextSchema = z.object({ en: z.string(), de: z.string() });
export type DiscountText = z.infer<typeof discountTextSchema>;

// --- end of localized catalogue ---

/** Money in minor units (cents; Paddle's two-decimal HUF) with its currency; never a float. */
export const moneySchema = z.object({ amount: z.number().int(), currencyCode: z.string() });
/** An amount in the currency's smallest unit (cents). */
export type Money = z.infer<typeof moneySchema>;

const discountRef = z.object({ id: z.string() }).nullable();

/**
 * How long a discount lasts, as Paddle says it (`recur`, `maximum_recurring_intervals`): `recur` false
 * takes it off the first payment only; true with `maximumRecurringIntervals` N off the first N billing
 * periods' payments; true with null off every payment.
 */
export const discountDurationSchema = z.object({ recur: z.boolean(), maximumRecurringIntervals: z.number().int().positive().nullable() });
export type DiscountDuration = z.infer<typeof discountDurationSchema>;

/**
 * A plan's first-purchase offer for this buyer (the launch discount): its name, how long it lasts, and
 * the plan's price per billing period while it lasts, in the buyer's currency, tax excluded.
 */
export const planOfferSchema = discountDurationSchema.extend({
  discountId: z.string(),
  description: z.string(),
  i18n: discountTextSchema,
  price: z.object({ amount: z.number().int(), currencyCode: z.string() }),
});
export type PlanOffer = z.infer<typeof planOfferSchema>;

/** `GET /paddle/list-plans` (spec section 3: id, description, discount id). */
export const planSchema = z.object({
  id: z.string(),
  description: z.string(),
  interval: z.enum(['month', 'year']),
  unitPrice: moneySchema,
  trialDays: z.number().int().nullable(),
  discount: discountRef,
  /** The first-purchase offer this buyer gets at checkout; null when none (e.g. a returning subscriber). */
  offer: planOfferSchema.nullable(),
  /** The plan's name (its price's, e.g. Monthly) and the subscription's description, in en and de. */
  i18n: catalogueTextSchema,
});
export const listPlansResponseSchema = z.array(planSchema);
export type Plan = z.infer<typeof planSchema>;

/** `GET /perpetual/products` (spec section 3; `custom_data.shapelabRelease` keeps Paddle's name). */
export const perpetualProductSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  custom_data: z.object({ shapelabRelease: z.string() }),
  /**
   * `unitPrice` is in the buyer's currency (Paddle's pricing preview for their country, tax excluded);
   * `upgradePrice` is what an owner of the previous release pays with the upgrade discount, else null.
   */
  prices: z.array(z.object({ id: z.string(), description: z.string(), unitPrice: moneySchema, upgradePrice: moneySchema.nullable() })),
  /** The upgrade discount, for a buyer eligible for it (spec section 3); null otherwise. */
  discount: discountRef,
  /** `name` and `description` in en and de, for the page to show in the reader's language. */
  i18n: catalogueTextSchema,
});
export const perpetualProductsResponseSchema = z.array(perpetualProductSchema);

/** `POST /subscription/preload` and `/perpetual/preload`: a discount by id or by code, or none. */
export const preloadRequestSchema = z
  .object({
    discountId: z.string().max(64).optional(),
    discountCode: z.string().max(64).optional(),
    /** ISO 3166 country for tax; the signed-in customer's address is used when there is one. */
    countryCode: z.string().length(2).optional(),
  })
  .strict();
export type PreloadRequest = z.infer<typeof preloadRequestSchema>;

const totals = z.object({ subtotal: z.number().int(), discount: z.number().int(), tax: z.number().int(), total: z.number().int() });
const formattedTotals = z.object({ subtotal: z.string(), discount: z.string(), tax: z.string(), total: z.string() });

export const discountSchema = z.object({
  id: z.string(),
  code: z.string().nullable(),
  description: z.string(),
  i18n: discountTextSchema,
  type: z.enum(['flat', 'flat_per_seat', 'percentage']),
  /** Percent for percentage discounts; minor units of `currencyCode` otherwise. */
  amount: z.number(),
  currencyCode: z.string().nullable(),
  restrictTo: z.array(z.string()).nullable(),
  expiresAt: z.string().nullable(),
  ...discountDurationSchema.shape,
});
export type Discount = z.infer<typeof discountSchema>;

export const preloadResponseSchema = z.object({
  currencyCode: z.string(),
  details: z.object({
    lineItems: z.array(
      z.object({
        /** `i18n`: the plan's (or product's) name and description in en and de, from the catalogue. */
        price: z.object({ id: z.string(), name: z.string(), i18n: catalogueTextSchema }),
        totals,
        formattedTotals,
        taxRate: z.string(),
        discount: discountSchema.nullable(),
      }),
    ),
  }),
});
export type PreloadResponse = z.infer<typeof preloadResponseSchema>;

export const discountByCodeQuerySchema = z.object({
  discountCode: z.string().max(64),
  /** Set by the humble-bundle checkout: the code must be one of Humble Bundle's. */
  humbleBundle: z.enum(['true', 'false']).optional(),
});
export const discountByPriceQuerySchema = z.object({
  priceId: z.string().max(64),
  eligibleForDiscount: z.enum(['true', 'false']).optional(),
});

export const customerResponseSchema = z.object({ id: z.string() });

/** Billing info (spec section 2, /account/billing-info), kept on the provider's customer, address and business. */
export const billingInfoSchema = z.object({
  name: z.string().trim().max(200).nullable(),
  email: z.string().trim().max(254),
  company: z.string().trim().max(200).nullable(),
  vatNumber: z.string().trim().max(32).nullable(),
  country: z.string().trim().length(2).nullable(),
  state: z.string().trim().max(100).nullable(),
  addressLine1: z.string().trim().max(200).nullable(),
  addressLine2: z.string().trim().max(200).nullable(),
  city: z.string().trim().max(100).nullable(),
  postalCode: z.string().trim().max(20).nullable(),
});
export type BillingInfo = z.infer<typeof billingInfoSchema>;
export const billingInfoUpdateSchema = billingInfoSchema.extend({ email: z.email().trim().max(254) }).partial().strict();

/**
 * `GET /paddle/config`: what the SPA needs to initialise Paddle.js: the environment, the client-side
 * token, and, with the offline stand-in, the script to load first (it sets window.PaddleBillingV1).
 */
export const paddleConfigSchema = z.object({
  environment: z.enum(['sandbox', 'production']),
  clientToken: z.string(),
  sandboxScript: z.string().nullable(),
});
export type PaddleConfig = z.infer<typeof paddleConfigSchema>;

/**
 * The outcome of a discount asked for beside one the buyer already has: `DISCOUNT_KEPT_BETTER` (the one
 * they had saves more, the code is not applied) or `DISCOUNT_REPLACED_BETTER` (the code saves more and
 * replaces it).
 */
export const DISCOUNT_DECISION_KEYS = ['DISCOUNT_KEPT_BETTER', 'DISCOUNT_REPLACED_BETTER'] as const;
export const discountDecisionSchema = z.object({
  messageKey: z.enum(DISCOUNT_DECISION_KEYS),
  applied: discountTextSchema,
  declined: discountTextSchema,
});
export type DiscountDecision = z.infer<typeof discountDecisionSchema>;

/** `POST /paddle/checkout`: the transaction for the provider's checkout to open. */
export const checkoutRequestSchema = z.object({ priceId: z.string().min(1).max(64), discountId: z.string().max(64).nullish() }).strict();
export const checkoutResponseSchema = z.object({
  transactionId: z.string(),
  /** The trial this purchase starts, in days; null when it starts none (not a plan, or not a first subscription). */
  trialDays: z.number().int().nullable(),
  /**
   * The discount the transaction carries: the one asked for, the plan's first-purchase discount, or the
   * upgrade discount the server applies by itself for an owner of the previous release.
   */
  discount: z.object({ id: z.string(), description: z.string(), i18n: discountTextSchema, ...discountDurationSchema.shape }).nullable(),
  /** The billing period of a plan (what "next" and "then" charges repeat by); null for a perpetual licence. */
  interval: z.enum(['month', 'year']).nullable(),
  /**
   * Why the transaction carries `discount` when the buyer asked for another one while one was already
   * theirs (the upgrade discount, the plan's first-purchase offer): a transaction carries one discount, and
   * the checkout keeps the one that saves the buyer more (issue 48). `messageKey` names the outcome (its
   * text under `pages.checkout.discountDecision.<messageKey>` in account.json), `applied` and `declined` the
   * two discounts in en and de. Null when there was no choice to make.
   */
  discountDecision: discountDecisionSchema.nullable(),
  /**
   * Issue 46 item 1: whether this purchase can be refunded within 14 days: false when the customer has had
   * the refund of this release (or of the subscription) once already; the page says so before paying.
   */
  refundable: z.boolean(),
});
export type CheckoutResponse = z.infer<typeof checkoutResponseSchema>;

/**
 * `GET /perpetual/license?UserId=&include=` (spec sections 3 and 7): a perpetual licence is the
 * transaction that bought it, with its items (each price with its product_id), the release it is for,
 * when it was bought and until when it gets free updates.
 */
export const perpetualLicenceSchema = z.object({
  /** The transaction that bought it (a redeemed coupon's licence has none: then the licence's own id). */
  id: z.string(),
  licenceId: z.string(),
  source: z.enum(['purchase', 'coupon', 'lite-key']),
  purchasedAt: z.string().nullable(),
  release: z.string().nullable(),
  /** The end of its free updates (spec section 9). */
  updatesUntil: z.string().nullable(),
  items: z.array(z.object({ price: z.object({ id: z.string(), product_id: z.string() }), quantity: z.number().int() })),
  /** The product's name as sold (e.g. "Shapelab 2025"); null for a coupon's licence. */
  productName: z.string().nullable(),
  /** This portal's invoice link for the purchase (null for a coupon's licence). */
  invoiceUrl: z.string().nullable(),
  /** Until when it can be returned for a full refund (14 days after purchase, spec section 9); null when it cannot. */
  returnableUntil: z.string().nullable(),
  /** What a return refunds: the purchase's payment. */
  paid: moneySchema.nullable(),
  /** Issue 46 item 1: the 14-day refund of this release was used on an earlier purchase: this one cannot be returned. */
  refundUsed: z.boolean(),
  /** The newest build of its release per platform that its free updates cover. */
  downloads: z.array(releaseSchema),
});
export const perpetualLicencesResponseSchema = z.array(perpetualLicenceSchema);
export type PerpetualLicence = z.infer<typeof perpetualLicenceSchema>;
export const licenceQuerySchema = z.object({ UserId: z.uuid().optional(), include: z.string().max(100).optional() });

/** `POST /perpetual/license/{licenceId}/return`: a licence returned within 14 days, its payment being refunded. */
export const licenceReturnParamsSchema = z.object({ licenceId: z.uuid() });
export const licenceReturnResponseSchema = z.object({ refund: moneySchema });
