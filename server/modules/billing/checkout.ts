import type { Kysely } from 'kysely';
import type { CheckoutResponse } from '../../../contract/billing.js';
import { callPaddle } from '../../billing/paddle.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { UserWithRoles } from '../users/repo.js';
import type { Catalogue } from './catalogue.js';
import { billingContext, customerIdFor, type CustomerDeps } from './customers.js';

/** Whether the user has had a subscription before (other than `except`): the trial is for the first one. */
export async function hadSubscription(db: Kysely<Database>, userId: string, except?: string): Promise<boolean> {
  let query = db.selectFrom('subscriptions').select('id').where('user_id', '=', userId);
  if (except) query = query.where('id', '!=', except);
  return (await query.executeTakeFirst()) !== undefined;
}

/** The products of the user's completed one-off purchases (recorded from `transaction.completed`). */
export async function ownedProductIds(db: Kysely<Database>, userId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('transactions')
    .select('items')
    .where('user_id', '=', userId)
    .where('status', '=', 'completed')
    .where('subscription_id', 'is', null)
    .execute();
  return new Set(rows.flatMap((row) => (JSON.parse(row.items) as { productId: string }[]).map((item) => item.productId)));
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
  if (kind === 'perpetual' && (await ownedProductIds(deps.db, user.id)).has(price.productId)) throw new AppError('PRODUCT_ALREADY_OWNED', 409);
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
