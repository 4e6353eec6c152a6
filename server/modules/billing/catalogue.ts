import type { CountryCode, CurrencyCode, Discount as PaddleDiscount, Paddle, PricingPreview, Product } from '@paddle/paddle-node-sdk';
import type { CatalogueText, Discount, DiscountDuration, DiscountText, PreloadResponse } from '../../../contract/billing.js';
import { callPaddle } from '../../billing/paddle.js';
import type { Clock } from '../../clock.js';
import { AppError } from '../../errors.js';

/** The catalogue changes rarely; it is read from Paddle at most once a minute. */
const CATALOGUE_TTL_MS = 60_000;

export interface CatalogueDeps {
  paddle: Paddle | null;
  clock: Clock;
}

type Kind = 'subscription' | 'perpetual';

function kindOf(product: Product): Kind | null {
  const kind = (product.customData as { kind?: unknown } | null)?.kind;
  return kind === 'subscription' || kind === 'perpetual' ? kind : null;
}

const minor = (amount: string) => Number.parseInt(amount, 10);

/**
 * The catalogue's translations, kept in Paddle's `custom_data` as `{ i18n: { de: { name, description } } }`
 * on a product (and `{ i18n: { de: { description } } }` on a price, whose description names a plan). One
 * object per language, so a further language is one more key, not a renamed field per language; English
 * stays in Paddle's own `name` and `description`, which Paddle's checkout, receipts and invoices use.
 */
type Translations = Partial<Record<'de', { name?: unknown; description?: unknown }>>;

function translationsOf(customData: unknown): Translations {
  const i18n = (customData as { i18n?: unknown } | null)?.i18n;
  return i18n && typeof i18n === 'object' ? (i18n as Translations) : {};
}

const textOr = (value: unknown, fallback: string | null) => (typeof value === 'string' && value.trim() !== '' ? value : fallback);

/**
 * A product's (or, with `price`, a plan's) name and description in en and de; German falls back to the
 * English where the catalogue has no German text. A plan is named by its price's description (Monthly).
 */
export function catalogueText(
  product: { name: string; description: string | null; customData: unknown } | null | undefined,
  price?: { description: string; customData: unknown } | null,
): CatalogueText {
  const productDe = translationsOf(product?.customData).de ?? {};
  const priceDe = translationsOf(price?.customData).de ?? {};
  const en = { name: price ? price.description : (product?.name ?? ''), description: product?.description ?? null };
  return {
    en,
    de: {
      name: price ? (textOr(priceDe.description, en.name) as string) : (textOr(productDe.name, en.name) as string),
      description: textOr(productDe.description, en.description),
    },
  };
}

/**
 * A discount's description in en and de: Paddle's `description` is the English (its checkout, receipts and
 * invoices use it); the German is kept in `custom_data.i18n.de.description`, as a price's, and falls back to
 * the English where the catalogue has none.
 */
export function discountText(discount: Pick<PaddleDiscount, 'description' | 'customData'>): DiscountText {
  const de = translationsOf(discount.customData).de ?? {};
  return { en: discount.description, de: textOr(de.description, discount.description) as string };
}

/**
 * Who is buying, for prices and tax: their Paddle customer with saved address and business, or, without
 * a saved address, their country (the billing info's, else the profile's); null fields are unknown.
 */
export interface Buyer {
  customerId: string | null;
  addressId: string | null;
  businessId: string | null;
  countryCode: string | null;
  /** A subscriber's prices for plans are in their subscription's currency (issue 46 item 2); null: by address. */
  currencyCode: string | null;
}

function buyerFields(buyer: Buyer | null) {
  if (!buyer) return {};
  const country = buyer.addressId ? null : buyer.countryCode?.toUpperCase();
  return {
    ...(buyer.customerId ? { customerId: buyer.customerId, addressId: buyer.addressId, businessId: buyer.businessId } : {}),
    ...(country && /^[A-Z]{2}$/.test(country) ? { address: { countryCode: country as CountryCode } } : {}),
    // Paddle prices in the currency asked for (a price's override in it, else its base price), taxed by the address.
    ...(buyer.currencyCode ? { currencyCode: buyer.currencyCode as CurrencyCode } : {}),
  };
}

/** The release a discount is the upgrade from (`custom_data.upgradeFromRelease`), or null. */
export function upgradeFromRelease(discount: PaddleDiscount): string | null {
  const from = (discount.customData as { upgradeFromRelease?: unknown } | null)?.upgradeFromRelease;
  return typeof from === 'string' && from !== '' ? from : null;
}

/** How long a discount lasts, in Paddle's terms (a non-positive limit is read as none: Paddle refuses it). */
export function durationOf(discount: PaddleDiscount): DiscountDuration {
  const limit = discount.maximumRecurringIntervals ?? null;
  return { recur: discount.recur, maximumRecurringIntervals: discount.recur && limit !== null && limit > 0 ? limit : null };
}

export function toDiscount(discount: PaddleDiscount): Discount {
  return {
    ...durationOf(discount),
    id: discount.id,
    code: discount.code ?? null,
    description: discount.description,
    i18n: discountText(discount),
    type: discount.type,
    amount: Number(discount.amount),
    currencyCode: discount.currencyCode ?? null,
    restrictTo: discount.restrictTo ?? null,
    expiresAt: discount.expiresAt ?? null,
  };
}

/** Why a discount cannot be used now, as a messageKey, or null. */
export function discountProblem(discount: PaddleDiscount, now: Date): 'DISCOUNT_ARCHIVED' | 'DISCOUNT_EXPIRED' | 'DISCOUNT_USAGE_LIMIT_EXCEEDED' | null {
  if (discount.status === 'archived') return 'DISCOUNT_ARCHIVED';
  if (discount.expiresAt && new Date(discount.expiresAt) <= now) return 'DISCOUNT_EXPIRED';
  if (discount.usageLimit != null && (discount.timesUsed ?? 0) >= discount.usageLimit) return 'DISCOUNT_USAGE_LIMIT_EXCEEDED';
  return null;
}

async function all<T>(collection: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of collection) items.push(item);
  return items;
}

/**
 * Plans, perpetual products and discounts from Paddle's catalogue (spec sections 3 and 7), and price
 * previews for them. Products say what they are in `custom_data.kind`; perpetual ones name their release
 * in `custom_data.shapelabRelease`; a plan's price may name its first-purchase discount in
 * `custom_data.defaultDiscountId`.
 */
export class Catalogue {
  private cached: { at: number; products: Promise<Product[]> } | null = null;

  constructor(private readonly deps: CatalogueDeps) {}

  private products(): Promise<Product[]> {
    const now = this.deps.clock.now().getTime();
    if (!this.cached || now - this.cached.at > CATALOGUE_TTL_MS) {
      const products = callPaddle(this.deps.paddle, (paddle) => all(paddle.products.list({ include: ['prices'], status: ['active'] })));
      this.cached = { at: now, products };
      products.catch(() => {
        this.cached = null;
      });
    }
    return this.cached.products;
  }

  private async ofKind(kind: Kind): Promise<Product[]> {
    return (await this.products()).filter((product) => kindOf(product) === kind);
  }

  async plans() {
    const [product] = await this.ofKind('subscription');
    if (!product) throw new AppError('PRICE_NOT_FOUND', 404);
    return (product.prices ?? [])
      .filter(
        (price) => price.status === 'active' && price.type !== 'custom' && (price.billingCycle?.interval === 'month' || price.billingCycle?.interval === 'year'),
      )
      .map((price) => {
        const defaultDiscountId = (price.customData as { defaultDiscountId?: unknown } | null)?.defaultDiscountId;
        return {
          id: price.id,
          description: price.description,
          interval: price.billingCycle?.interval as 'month' | 'year',
          unitPrice: { amount: minor(price.unitPrice.amount), currencyCode: price.unitPrice.currencyCode },
          trialDays: price.trialPeriod?.interval === 'day' ? price.trialPeriod.frequency : null,
          discount: typeof defaultDiscountId === 'string' ? { id: defaultDiscountId } : null,
          i18n: catalogueText(product, price),
        };
      })
      .sort((a, b) => (a.interval === b.interval ? 0 : a.interval === 'month' ? -1 : 1));
  }

  /** A price on sale in the catalogue (a plan or a perpetual release), with what kind of product it is. */
  async price(priceId: string): Promise<{ price: NonNullable<Product['prices']>[number]; kind: Kind }> {
    for (const product of await this.products()) {
      const kind = kindOf(product);
      const price = (product.prices ?? []).find((p) => p.id === priceId && p.status === 'active' && p.type !== 'custom');
      if (kind && price) return { price, kind };
    }
    throw new AppError('PRICE_NOT_FOUND', 404);
  }

  async perpetualProducts() {
    return (await this.ofKind('perpetual')).map((product) => ({
      id: product.id,
      name: product.name,
      description: product.description,
      custom_data: { shapelabRelease: String((product.customData as { shapelabRelease?: unknown }).shapelabRelease ?? '') },
      prices: (product.prices ?? [])
        .filter((price) => price.status === 'active')
        .map((price) => ({ id: price.id, description: price.description, unitPrice: { amount: minor(price.unitPrice.amount), currencyCode: price.unitPrice.currencyCode } })),
      // The catalogue's own view; a buyer's prices and upgrade discount are added by offers.ts.
      discount: null,
      i18n: catalogueText(product),
    }));
  }

  /** A discount by its code, checked for use now (and, for the humble-bundle checkout, that it is one). */
  async discountByCode(code: string, options: { humbleBundle: boolean }): Promise<Discount> {
    const wanted = code.trim();
    if (!/^[A-Za-z0-9_-]{1,32}$/.test(wanted)) throw new AppError('INVALID_COUPON_CODE', 400);
    const [discount] = await callPaddle(this.deps.paddle, (paddle) => all(paddle.discounts.list({ code: [wanted] })));
    if (!discount) throw new AppError('DISCOUNT_NOT_FOUND', 404);
    const problem = discountProblem(discount, this.deps.clock.now());
    if (problem) throw new AppError(problem, 400);
    if (options.humbleBundle && (discount.customData as { humbleBundle?: unknown } | null)?.humbleBundle !== true) {
      throw new AppError('DISCOUNT_NOT_HUMBLE_BUNDLE', 400);
    }
    return toDiscount(discount);
  }

  async discountById(id: string): Promise<PaddleDiscount> {
    const discount = await callPaddle(this.deps.paddle, (paddle) => paddle.discounts.get(id), 'DISCOUNT_NOT_FOUND');
    const problem = discountProblem(discount, this.deps.clock.now());
    if (problem) throw new AppError(problem, 400);
    return discount;
  }

  /** The upgrade discount on a price for owners of the previous release, when they are eligible. */
  async discountForPrice(priceId: string, eligible: boolean): Promise<Discount | null> {
    if (!eligible) return null;
    const upgrade = await this.upgradeDiscount(priceId, null);
    return upgrade ? toDiscount(upgrade) : null;
  }

  /**
   * The active upgrade discount of a price (a discount whose custom_data names `upgradeFromRelease` and
   * that is restricted to the price), for owners of `fromRelease` when it is given.
   */
  async upgradeDiscount(priceId: string, fromRelease: string | null): Promise<PaddleDiscount | null> {
    const discounts = await callPaddle(this.deps.paddle, (paddle) => all(paddle.discounts.list({ status: ['active'] })));
    const now = this.deps.clock.now();
    return (
      discounts.find((d) => {
        const from = upgradeFromRelease(d);
        return from !== null && (fromRelease === null || from === fromRelease) && (d.restrictTo ?? []).includes(priceId) && discountProblem(d, now) === null;
      }) ?? null
    );
  }

  /**
   * What `priceIds` cost this buyer, excluding tax (spec section 1), from Paddle's pricing preview for
   * their customer and saved address, or for their country: one currency for everything they see (USD
   * by default; a price's override for their country, such as HUF in Hungary). With `discountId`, each
   * price after that discount.
   */
  async pricesFor(priceIds: string[], buyer: Buyer | null, discountId?: string | null): Promise<Map<string, { amount: number; currencyCode: string }>> {
    const prices = new Map<string, { amount: number; currencyCode: string }>();
    if (priceIds.length === 0) return prices;
    const preview = await callPaddle(this.deps.paddle, (paddle) =>
      paddle.pricingPreview.preview({
        items: priceIds.map((priceId) => ({ priceId, quantity: 1 })),
        ...(discountId ? { discountId } : {}),
        ...buyerFields(buyer),
      }),
    );
    for (const line of preview.details.lineItems) {
      prices.set(line.price.id, { amount: minor(line.totals.subtotal) - minor(line.totals.discount), currencyCode: preview.currencyCode });
    }
    return prices;
  }

  /**
   * `POST /{subscription,perpetual}/preload`: a price preview of every plan or perpetual price, with the
   * discount given by id or code (checked first, so its problem is named), for the buyer's country.
   */
  async preload(
    kind: Kind,
    input: { discountId?: string; discountCode?: string; countryCode?: string; currencyCode?: string | null },
    customer: { customerId: string; addressId: string | null; businessId: string | null } | null,
  ): Promise<PreloadResponse> {
    const products = await this.ofKind(kind);
    const priceIds = products.flatMap((product) => (product.prices ?? []).filter((p) => p.status === 'active').map((p) => p.id));
    if (priceIds.length === 0) throw new AppError('PRICE_NOT_FOUND', 404);
    let discount: PaddleDiscount | null = null;
    if (input.discountCode) {
      discount = await this.discountById((await this.discountByCode(input.discountCode, { humbleBundle: false })).id);
    } else if (input.discountId) {
      discount = await this.discountById(input.discountId);
    }
    const buyer: Buyer = {
      customerId: customer?.customerId ?? null,
      addressId: customer?.addressId ?? null,
      businessId: customer?.businessId ?? null,
      countryCode: input.countryCode ?? null,
      currencyCode: input.currencyCode ?? null,
    };
    const preview: PricingPreview = await callPaddle(this.deps.paddle, (paddle) =>
      paddle.pricingPreview.preview({
        items: priceIds.map((priceId) => ({ priceId, quantity: 1 })),
        ...(discount ? { discountId: discount.id } : {}),
        ...buyerFields(buyer),
      }),
    );
    return {
      currencyCode: preview.currencyCode,
      details: {
        lineItems: preview.details.lineItems.map((line) => {
          const applied = line.discounts[0]?.discount;
          return {
            price: { id: line.price.id, name: line.price.name ?? line.price.description, i18n: catalogueText(line.product, line.price) },
            totals: {
              subtotal: minor(line.totals.subtotal),
              discount: minor(line.totals.discount),
              tax: minor(line.totals.tax),
              total: minor(line.totals.total),
            },
            formattedTotals: line.formattedTotals,
            taxRate: line.taxRate,
            discount: applied ? toDiscount(applied) : null,
          };
        }),
      },
    };
  }
}
