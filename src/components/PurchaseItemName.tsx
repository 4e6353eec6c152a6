import { useTranslation } from 'react-i18next';
import type { CatalogueText } from '../../contract/billing.js';
import type { Invoice } from '../../contract/subscription.js';
import { catalogueText } from '../billing/catalogueText.js';
import { useLocale } from './LocaleScope.js';

/** What a payment bought; the catalogue's own names in en and de when the answer carries them (the invoice list does). */
export type PurchaseItem = Pick<Invoice['items'][number], 'name' | 'kind' | 'release' | 'interval'> & { i18n?: CatalogueText };
type Translate = (key: string, options?: Record<string, string>) => string;

/**
 * What a payment bought, in the reader's language (spec section 2: plan, product version): a plan by its
 * billing interval, a perpetual licence by its release. Anything else by the catalogue's name in the
 * reader's language (Paddle custom_data.i18n), else the name it was sold under.
 */
export function purchaseItemName(item: PurchaseItem, t: Translate, language = 'en'): string {
  if (item.kind === 'subscription') {
    if (item.interval === 'month') return t('purchases.subscriptionMonthly');
    if (item.interval === 'year') return t('purchases.subscriptionYearly');
    return t('purchases.subscription');
  }
  if (item.kind === 'perpetual' && item.release) return t('purchases.perpetual', { release: item.release });
  return item.i18n ? catalogueText(item.i18n, language).name : item.name;
}

/** The items of one payment, named for the reader, one after the other. */
export function PurchaseItemName({ items }: { items: readonly PurchaseItem[] }) {
  const { t } = useTranslation();
  const { language } = useLocale();
  return <>{items.map((item) => purchaseItemName(item, t, language)).join(', ')}</>;
}
