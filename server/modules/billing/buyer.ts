import { type UserWithRoles } from '../users/index.js';
import type { Buyer } from './catalogue.js';
import { billingContext, type CustomerDeps } from './customers.js';

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
  };
}
