import { type UserWithRoles } from '../users/index.js';
import type { Buyer } from './catalogue.js';
import { billingContext, type CustomerDeps } from './customers.js';
import { LIVE_STATUSES } from './ownership.js';
import { liveSubscriptionCurrency } from './subscriptions-repo.js';

/**
 * The buyer a signed-in user is for prices and tax: their Paddle customer with saved address and
 * business when they have them; without a saved address, the country of their profile, so a customer
 * in Hungary sees HUF from the first page on (issue 16: one currency per customer, everywhere).
 */
export async function buyerOf(deps: CustomerDeps, user: UserWithRoles): Promise<Buyer> {
  const context = await billingContext(deps, user);
  return {
    customerId: context?.customerId ?? null,
    addressId: context?.addressId ?? null,
    businessId: context?.businessId ?? null,
    countryCode: user.country ?? null,
    currencyCode: null,
  };
}

/**
 * The buyer of a plan (issue 46 item 2): as `buyerOf`, and for a subscriber in their subscription's currency.
 * A Paddle subscription never changes currency, so every plan price a subscriber sees (choose-plan, the home,
 * the subscription page; the switch preview is Paddle's own, for the subscription) is in it; a new billing
 * address changes the tax, not the currency. Without a live subscription the address decides, as before.
 */
export async function planBuyerOf(deps: CustomerDeps, user: UserWithRoles): Promise<Buyer> {
  const [buyer, currencyCode] = await Promise.all([buyerOf(deps, user), liveSubscriptionCurrency(deps.db, user.id, LIVE_STATUSES)]);
  return { ...buyer, currencyCode };
}
