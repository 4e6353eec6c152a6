import type { Plan, PreloadResponse } from '../../../contract/billing.js';
import { type UserWithRoles } from '../users/index.js';
import { buyerOf, planBuyerOf } from './buyer.js';
import { discountText, durationOf, type Catalogue } from './catalogue.js';
import type { CustomerDeps } from './customers.js';
import { ownedPerpetual } from '../licensing/index.js';
import { upgradeEligibility } from './ownership.js';
import { hasSubscription } from './subscriptions-repo.js';

/**
 * `GET /paddle/list-plans` for a signed-in user: each plan priced for them (their currency, tax
 * excluded; a subscriber's is their subscription's, issue 46 item 2). The 14-day trial is for a first
 * subscription: someone who has subscribed before sees plans without it.
 */
export async function plansFor(deps: CustomerDeps, catalogue: Catalogue, user: UserWithRoles): Promise<Plan[]> {
  const [plans, buyer, returning] = await Promise.all([catalogue.plans(), planBuyerOf(deps, user), hasSubscription(deps.db, user.id)]);
  // The plans' prices and their offers' prices are asked of Paddle at once, not one after the other.
  const [prices, offers] = await Promise.all([
    catalogue.pricesFor(
      plans.map((plan) => plan.id),
      buyer,
    ),
    // A returning subscriber's checkout carries no first-purchase offer (checkout.ts), so none is shown.
    returning ? Promise.resolve(plans.map(() => null)) : Promise.all(plans.map((plan) => offerPrice(catalogue, plan, buyer))),
  ]);
  return plans.map((plan, index) => {
    const unitPrice = prices.get(plan.id) ?? plan.unitPrice;
    const offer = offers[index] ?? null;
    // An offer is only one that takes something off this buyer's price, in the same currency.
    const real = offer && offer.price.currencyCode === unitPrice.currencyCode && offer.price.amount < unitPrice.amount;
    return { ...plan, unitPrice, trialDays: returning ? null : plan.trialDays, offer: real ? offer : null };
  });
}

/**
 * A plan's first-purchase discount as the buyer would get it, priced by Paddle's preview with the
 * discount (never computed here); a discount that cannot be used now (expired, archived, used up) is none.
 */
async function offerPrice(catalogue: Catalogue, plan: Pick<Plan, 'id' | 'discount'>, buyer: Awaited<ReturnType<typeof planBuyerOf>>): Promise<Plan['offer']> {
  if (!plan.discount) return null;
  const discount = await catalogue.discountById(plan.discount.id).catch(() => null);
  if (!discount) return null;
  const price = (await catalogue.pricesFor([plan.id], buyer, discount.id)).get(plan.id);
  return price ? { discountId: discount.id, description: discount.description, i18n: discountText(discount), ...durationOf(discount), price } : null;
}

/**
 * `GET /perpetual/products` for a signed-in user: the releases they do not own (spec section 4: owned
 * products are hidden), priced for them; for an owner of the previous release, the upgrade discount and
 * the price with it (spec section 3).
 */
export async function perpetualProductsFor(deps: CustomerDeps, catalogue: Catalogue, user: UserWithRoles) {
  const owned = await ownedPerpetual(deps.db, user.id);
  const products = (await catalogue.perpetualProducts()).filter(
    (product) => !owned.productIds.has(product.id) && !owned.releases.has(product.custom_data.shapelabRelease),
  );
  const priceIds = products.flatMap((product) => product.prices.map((price) => price.id));
  const buyer = await buyerOf(deps, user);
  const eligibility = await upgradeEligibility(deps.db, user.id, deps.clock.now());
  const prices = await catalogue.pricesFor(priceIds, buyer);
  return Promise.all(
    products.map(async (product) => {
      const upgrades = new Map<string, { id: string; amount: number; currencyCode: string }>();
      if (eligibility.eligible) {
        for (const price of product.prices) {
          const discount = await catalogue.upgradeDiscount(price.id, eligibility.fromRelease);
          const discounted = discount ? (await catalogue.pricesFor([price.id], buyer, discount.id)).get(price.id) : undefined;
          if (discount && discounted) upgrades.set(price.id, { id: discount.id, ...discounted });
        }
      }
      const upgradeId = [...upgrades.values()][0]?.id ?? null;
      return {
        ...product,
        prices: product.prices.map((price) => {
          const upgrade = upgrades.get(price.id);
          return {
            ...price,
            unitPrice: prices.get(price.id) ?? price.unitPrice,
            upgradePrice: upgrade ? { amount: upgrade.amount, currencyCode: upgrade.currencyCode } : null,
          };
        }),
        discount: upgradeId ? { id: upgradeId } : null,
      };
    }),
  );
}

/**
 * `POST /{subscription,perpetual}/preload`: prices for the page before checkout. A signed-in buyer's saved
 * address sets the tax; without one, the profile's country sets the currency (one currency per customer);
 * a subscriber's plans are in their subscription's currency (issue 46 item 2).
 */
export async function preloadFor(
  deps: CustomerDeps,
  catalogue: Catalogue,
  kind: 'subscription' | 'perpetual',
  body: { discountId?: string; discountCode?: string; countryCode?: string },
  user: UserWithRoles | null,
): Promise<PreloadResponse> {
  if (!user) return catalogue.preload(kind, body, null);
  const buyer = kind === 'subscription' ? await planBuyerOf(deps, user) : await buyerOf(deps, user);
  const customer = buyer.customerId ? { customerId: buyer.customerId, addressId: buyer.addressId, businessId: buyer.businessId } : null;
  return catalogue.preload(kind, { ...body, countryCode: body.countryCode ?? buyer.countryCode ?? undefined, currencyCode: buyer.currencyCode }, customer);
}
