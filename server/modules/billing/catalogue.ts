import type { Discount as PaddleDiscount, Paddle, PricingPreview, Product } from '@paddle/paddle-node-sdk';
import type { Discount, PreloadResponse } from '../../../contract/billing.js';
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

export function toDiscount(discount: PaddleDiscount): Discount {
  return {
    id: discount.id,
    code: discount.code ?? null,
    description: discount.description,
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
      discount: null,
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
    const discounts = await callPaddle(this.deps.paddle, (paddle) => all(paddle.discounts.list({ status: ['active'] })));
    const now = this.deps.clock.now();
    const upgrade = discounts.find(
      (d) =>
        (d.customData as { upgradeFromRelease?: unknown } | null)?.upgradeFromRelease !== undefined &&
        (d.restrictTo ?? []).includes(priceId) &&
        discountProblem(d, now) === null,
    );
    return upgrade ? toDiscount(upgrade) : null;
  }

  /**
   * `POST /{subscription,perpetual}/preload`: a price preview of every plan or perpetual price, with the
   * discount given by id or code (checked first, so its problem is named), for the buyer's country.
   */
  async preload(
    kind: Kind,
    input: { discountId?: string; discountCode?: string; countryCode?: string },
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
    const address = customer?.addressId ? null : input.countryCode ? { countryCode: input.countryCode.toUpperCase() } : null;
    const preview: PricingPreview = await callPaddle(this.deps.paddle, (paddle) =>
      paddle.pricingPreview.preview({
        items: priceIds.map((priceId) => ({ priceId, quantity: 1 })),
        ...(discount ? { discountId: discount.id } : {}),
        ...(customer ? { customerId: customer.customerId, addressId: customer.addressId, businessId: customer.businessId } : {}),
        ...(address ? { address: address as { countryCode: never } } : {}),
      }),
    );
    return {
      currencyCode: preview.currencyCode,
      details: {
        lineItems: preview.details.lineItems.map((line) => {
          const applied = line.discounts[0]?.discount;
          return {
            price: { id: line.price.id, name: line.price.name ?? line.price.description },
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
