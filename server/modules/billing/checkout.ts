import type { Kysely } from 'kysely';
import type { CheckoutResponse } from '../../../contract/billing.js';
import { callPaddle } from '../../billing/paddle.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { UserWithRoles } from '../users/repo.js';
import type { Catalogue } from './catalogue.js';
import { billingContext, customerIdFor, type CustomerDeps } from './customers.js';
import { ownedPerpetual } from '../licensing/licences.js';

/** Whether the user has had a subscription before (other than `except`): the trial is for the first one. */
export async function hadSubscription(db: Kysely<Database>, userId: string, except?: string): Promise<boolean> {
  let query = db.selectFrom('subscriptions').select('id').where('user_id', '=', userId);
  if (except) query = query.where('id', '!=', except);
  return (await query.executeTakeFirst()) !== undefined;
}

/**
 * The transaction the provider's checkout opens for a purchase: the user's customer, saved address and
 * business, the discount (checked first, so its problem is named), and the user's id in custom_data.
 * A plan bought by someone who has subscribed before is sold without its trial (spec section 4: the
 * 14-day trial is for a first subscription): as a non-catalogue copy of the price with no trial period.
 */
export async function createCheckout(
  deps: CustomerDeps,
  catalogue: Catalogue,
  user: UserWithRoles,
  input: { priceId: string; discountId?: string | null | undefined },
): Promise<CheckoutResponse> {
  const { price, kind } = await catalogue.price(input.priceId);
  if (kind === 'perpetual') {
    // A release is sold once per user, whether it was bought or came with a coupon.
    const owned = await ownedPerpetual(deps.db, user.id);
    const release = (await catalogue.perpetualProducts()).find((product) => product.id === price.productId)?.custom_data.shapelabRelease;
    if (owned.productIds.has(price.productId) || (release && owned.releases.has(release))) throw new AppError('PRODUCT_ALREADY_OWNED', 409);
  }
  const discount = input.discountId ? await catalogue.discountById(input.discountId) : null;
  const customerId = await customerIdFor(deps, user);
  const context = await billingContext(deps, user);
  const withoutTrial = kind === 'subscription' && price.trialPeriod !== null && (await hadSubscription(deps.db, user.id));
  const item = withoutTrial
    ? {
        price: {
          productId: price.productId,
          description: price.description,
          name: price.name,
          unitPrice: price.unitPrice,
          unitPriceOverrides: price.unitPriceOverrides,
          billingCycle: price.billingCycle,
          trialPeriod: null,
          taxMode: price.taxMode,
          customData: { ...(price.customData ?? {}), catalogPriceId: price.id },
        },
        quantity: 1,
      }
    : { priceId: price.id, quantity: 1 };
  const transaction = await callPaddle(deps.paddle, (paddle) =>
    paddle.transactions.create({
      items: [item],
      customerId,
      addressId: context?.addressId ?? null,
      businessId: context?.businessId ?? null,
      discountId: discount?.id ?? null,
      customData: { userId: user.id },
    }),
  );
  return { transactionId: transaction.id, trialDays: withoutTrial || !price.trialPeriod ? null : price.trialPeriod.frequency };
}
