import { useTranslation } from 'react-i18next';
import type { Invoice } from '../../contract/subscription.js';

export type PurchaseItem = Pick<Invoice['items'][number], 'name' | 'kind' | 'release' | 'interval'>;
type Translate = (key: string, options?: Record<string, string>) => string;

/**
 * What a payment bought, in the reader's language (spec section 2: plan, product version): a plan by its
 * billing interval, a perpetual licence by its release. The catalogue's own name (English, as sold) is
 * kept for anything else.
 */
export function purchaseItemName(item: PurchaseItem, t: Translate): string {
  if (item.kind === 'subscription') {
    if (item.interval === 'month') return t('purchases.subscriptionMonthly');
    if (item.interval === 'year') return t('purchases.subscriptionYearly');
    return t('purchases.subscription');
  }
  if (item.kind === 'perpetual' && item.release) return t('purchases.perpetual', { release: item.release });
  return item.name;
}

/** The items of one payment, named for the reader, one after the other. */
export function PurchaseItemName({ items }: { items: readonly PurchaseItem[] }) {
  const { t } = useTranslation();
  return <>{items.map((item) => purchaseItemName(item, t)).join(', ')}</>;
}
