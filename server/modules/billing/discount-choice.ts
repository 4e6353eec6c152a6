import type { Discount as PaddleDiscount } from '@paddle/paddle-node-sdk';
import type { DiscountDecision } from '../../../contract/billing.js';
import { discountText, type Buyer, type Catalogue } from './catalogue.js';

/**
 * The charges a discount is weighed over: the one payment of a licence, a year of a plan's payments (twelve
 * monthly, one yearly). A discount that recurs for ever counts for the whole horizon.
 */
function horizonOf(interval: 'month' | 'year' | null): number {
  return interval === 'month' ? 12 : 1;
}

/** How many of the horizon's charges a discount takes something off (Paddle: `recur`, `maximum_recurring_intervals`). */
function chargesCovered(discount: PaddleDiscount, horizon: number): number {
  if (!discount.recur) return 1;
  const limit = discount.maximumRecurringIntervals ?? null;
  return limit !== null && limit > 0 ? Math.min(limit, horizon) : horizon;
}

/**
 * The one rule for two discounts on one purchase (issue 48): a transaction carries one discount, so when
 * the buyer asks for `asked` while `standing` is already theirs (the upgrade discount of an owner of the
 * previous release, a plan's first-purchase offer), the checkout keeps whichever saves the buyer more,
 * never the one that costs them more, and says so. What each saves is Paddle's own price preview for this
 * buyer (never computed here) times the charges it covers within a year; a tie keeps the standing one.
 */
export async function chooseDiscount(
  catalogue: Catalogue,
  priceId: string,
  interval: 'month' | 'year' | null,
  buyer: Buyer,
  standing: PaddleDiscount | null,
  asked: PaddleDiscount | null,
): Promise<{ discount: PaddleDiscount | null; decision: DiscountDecision | null }> {
  if (!standing || !asked || standing.id === asked.id) return { discount: asked ?? standing, decision: null };
  const [full, withStanding, withAsked] = await Promise.all([
    catalogue.pricesFor([priceId], buyer),
    catalogue.pricesFor([priceId], buyer, standing.id),
    catalogue.pricesFor([priceId], buyer, asked.id),
  ]);
  const base = full.get(priceId)?.amount ?? 0;
  const horizon = horizonOf(interval);
  const saving = (prices: typeof full, discount: PaddleDiscount) => (base - (prices.get(priceId)?.amount ?? base)) * chargesCovered(discount, horizon);
  const askedIsBetter = saving(withAsked, asked) > saving(withStanding, standing);
  const [applied, declined] = askedIsBetter ? [asked, standing] : [standing, asked];
  return {
    discount: applied,
    decision: { messageKey: askedIsBetter ? 'DISCOUNT_REPLACED_BETTER' : 'DISCOUNT_KEPT_BETTER', applied: discountText(applied), declined: discountText(declined) },
  };
}
