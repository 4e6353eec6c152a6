import type { CurrencyCode, Discount as PaddleDiscount } from '@paddle/paddle-node-sdk';
import type { Kysely } from 'kysely';
import type { CheckoutResponse } from '../../../contract/billing.js';
import { callPaddle } from '../../billing/paddle.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { type UserWithRoles } from '../users/index.js';
import { discountText, durationOf, upgradeFromRelease, type Catalogue } from './catalogue.js';
import { buyerOf } from './buyer.js';
import { chooseDiscount } from './discount-choice.js';
import { liveSubscriptions, upgradeEligibility } from './ownership.js';
import { customerIdFor, updateBillingInfo, type BillingInfoDeps, type CustomerDeps } from './customers.js';
import { checkoutOf, claimCheckout, deleteOpenCheckouts, dropClaim, reclaimCheckout, setCheckoutTransaction, takeOverClaim } from './checkouts-repo.js';
import { hasSubscription } from './subscriptions-repo.js';
import { releaseRefund, SUBSCRIPTION_REFUND, usedRefunds } from './refund-once.js';
import { ownedPerpetual } from '../licensing/index.js';

/** A claim older than this belongs to a request that died while creating its transaction: it is taken over. */
const STALE_CLAIM_MS = 30_000;
const CLAIM_WAIT_MS = 100;

/**
 * The transaction the provider's checkout opens for a purchase: the user's customer, saved address and
 * business, the currency of their country, the discount (checked first, so its problem is named), and
 * the user's id in custom_data. Enforced before any money moves (issue 16):
 * - a user with a live subscription cannot buy a second one (SUBSCRIPTION_EXISTS), a release is sold once;
 * - the upgrade discount is applied by itself for an owner of the previous release, refused to others;
 * - a code never costs the buyer more than the discount already theirs (discount-choice.ts);
 * - a second request for the same purchase while its transaction is open answers that transaction.
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
  let upgrade: PaddleDiscount | null = null;
  let release: string | undefined;
  if (kind === 'perpetual') {
    // A release is sold once per user, whether it was bought or came with a coupon.
    const owned = await ownedPerpetual(deps.db, user.id);
    release = (await catalogue.perpetualProducts()).find((product) => product.id === price.productId)?.custom_data.shapelabRelease;
    if (owned.productIds.has(price.productId) || (release && owned.releases.has(release))) throw new AppError('PRODUCT_ALREADY_OWNED', 409);
    const eligibility = await upgradeEligibility(deps.db, user.id, deps.clock.now());
    if (eligibility.eligible) upgrade = await catalogue.upgradeDiscount(price.id, eligibility.fromRelease);
  } else if ((await liveSubscriptions(deps.db, user.id)).length > 0) {
    throw new AppError('SUBSCRIPTION_EXISTS', 409);
  }
  let discount = input.discountId ? await catalogue.discountById(input.discountId) : null;
  // The upgrade price is for owners of the previous release only (spec section 3).
  if (discount && upgradeFromRelease(discount) !== null && discount.id !== upgrade?.id) throw new AppError('DISCOUNT_NOT_ELIGIBLE', 403);
  const customerId = await customerIdFor(deps, user);
  const buyer = { ...(await buyerOf(deps, user)), customerId };
  const withoutTrial = kind === 'subscription' && price.trialPeriod !== null && (await hasSubscription(deps.db, user.id));
  const interval = kind === 'subscription' && (price.billingCycle?.interval === 'month' || price.billingCycle?.interval === 'year') ? price.billingCycle.interval : null;
  // The discount already the buyer's: the upgrade discount, or a first subscription's first-purchase offer.
  const standing = kind === 'perpetual' ? upgrade : withoutTrial ? null : await firstPurchaseOffer(catalogue, price.customData);
  // One discount per transaction: of the two, the one that saves the buyer more (discount-choice.ts). The
  // upgrade is applied by itself; a plan's offer only when asked for (the page asks for it by default).
  const chosen = await chooseDiscount(catalogue, price.id, interval, buyer, standing, discount);
  discount = kind === 'perpetual' ? chosen.discount : discount && chosen.discount;
  // A returning subscriber buys a non-catalogue copy of the plan (no trial): a discount restricted to the
  // catalogue price (the plan's first-purchase offer) would take nothing off it, so it is neither attached
  // nor named; the answer never claims a discount the transaction does not carry.
  if (withoutTrial && discount?.restrictTo?.length && !discount.restrictTo.includes(price.productId)) discount = null;
  // Paddle prices a transaction by its address; without one, in the currency the buyer's country sees.
  const currencyCode = (await catalogue.pricesFor([price.id], buyer)).get(price.id)?.currencyCode ?? null;
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
  const fingerprint = [kind, price.id, discount?.id ?? '', withoutTrial ? 'no-trial' : 'trial', buyer.addressId ?? '', buyer.businessId ?? '', buyer.countryCode ?? '', currencyCode ?? ''].join('|');
  const transactionId = await openTransaction(deps, user.id, fingerprint, async () => {
    const transaction = await callPaddle(deps.paddle, (paddle) =>
      paddle.transactions.create({
        items: [item],
        customerId,
        addressId: buyer.addressId,
        businessId: buyer.businessId,
        discountId: discount?.id ?? null,
        ...(buyer.addressId || !currencyCode ? {} : { currencyCode: currencyCode as CurrencyCode }),
        customData: { userId: user.id },
      }),
    );
    return transaction.id;
  });
  // Issue 46 item 1: told before paying when the 14-day refund of this (release, or the subscription) is used up.
  const used = await usedRefunds(deps.db, user.id);
  const scope = kind === 'subscription' ? SUBSCRIPTION_REFUND : release ? releaseRefund(release) : null;
  return {
    transactionId,
    refundable: scope === null || !used.has(scope),
    trialDays: withoutTrial || !price.trialPeriod ? null : price.trialPeriod.frequency,
    discount: discount ? { id: discount.id, description: discount.description, i18n: discountText(discount), ...durationOf(discount) } : null,
    interval,
    discountDecision: discount ? chosen.decision : null,
  };
}

/** A plan price's first-purchase offer (`custom_data.defaultDiscountId`) while it can be used, else null. */
async function firstPurchaseOffer(catalogue: Catalogue, customData: unknown): Promise<PaddleDiscount | null> {
  const id = (customData as { defaultDiscountId?: unknown } | null)?.defaultDiscountId;
  return typeof id === 'string' ? catalogue.discountById(id).catch(() => null) : null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The open transaction of this purchase (`fingerprint`: what, at which price, discount, trial, address
 * and currency), created by `create` when there is none. The row is claimed before Paddle is called
 * (primary key (user, fingerprint)), so of two requests at once one creates and the other waits for its
 * transaction; a transaction that is no longer open (paid, cancelled) is replaced by a conditional
 * update, so only one request replaces it.
 */
async function openTransaction(deps: CustomerDeps, userId: string, fingerprint: string, create: () => Promise<string>): Promise<string> {
  const claimAndCreate = async () => {
    try {
      const transactionId = await create();
      await setCheckoutTransaction(deps.db, userId, fingerprint, transactionId);
      return transactionId;
    } catch (error) {
      await dropClaim(deps.db, userId, fingerprint);
      throw error;
    }
  };
  // Bounded by attempts, not by the clock (a test's clock stands still): 30 s of waiting at most.
  for (let attempt = 0; attempt < STALE_CLAIM_MS / CLAIM_WAIT_MS; attempt += 1) {
    const now = deps.clock.now().toISOString();
    if (await claimCheckout(deps.db, userId, fingerprint, now)) return claimAndCreate();
    const row = await checkoutOf(deps.db, userId, fingerprint);
    if (!row) continue;
    if (row.transaction_id === null) {
      if (deps.clock.now().getTime() - Date.parse(row.claimed_at) > STALE_CLAIM_MS) {
        if (await takeOverClaim(deps.db, userId, fingerprint, row.claimed_at, now)) return claimAndCreate();
      }
      await sleep(CLAIM_WAIT_MS);
      continue;
    }
    const open = await callPaddle(deps.paddle, (paddle) => paddle.transactions.get(row.transaction_id as string));
    if (open.status === 'ready' || open.status === 'draft') return open.id;
    if (await reclaimCheckout(deps.db, userId, fingerprint, row.transaction_id, now)) return claimAndCreate();
  }
  throw new AppError('BILLING_UNAVAILABLE', 503);
}

/** Forgets the user's open checkouts (their address or business changed): the next checkout creates anew. */
export async function forgetOpenCheckouts(db: Kysely<Database>, userId: string): Promise<void> {
  await deleteOpenCheckouts(db, userId);
}

/** Billing info changed: an open checkout was priced for the old address or business, so the next one is made anew. */
export async function changeBillingInfo(deps: BillingInfoDeps, user: UserWithRoles, changes: Parameters<typeof updateBillingInfo>[2]) {
  const updated = await updateBillingInfo(deps, user, changes);
  await forgetOpenCheckouts(deps.db, user.id);
  return updated;
}
