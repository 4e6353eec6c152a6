import { useList } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import type { Plan } from '../../../../contract/billing.js';
import type { DataError } from '../../../../providers/dataProvider.js';
import type { PerpetualProduct } from '../../../billing/types.js';

export type Kind = 'subscription' | 'perpetual';

/** One price the checkout offers, in the customer's currency. */
export interface Option {
  priceId: string;
  name: string;
  amount: number;
  currencyCode: string;
  interval: 'month' | 'year' | null;
  defaultDiscountId: string | null;
}

/**
 * The prices of a kind of purchase: the plans (resource `plans`) or the perpetual products' prices
 * (resource `perpetual-products`); null while they load or after a failure (told by a notification).
 */
export function useCheckoutOptions(kind: Kind): Option[] | null {
  const { t } = useTranslation();
  const plans = useList<Plan, DataError>({ resource: 'plans', pagination: { mode: 'off' }, queryOptions: { enabled: kind === 'subscription' } });
  const products = useList<PerpetualProduct, DataError>({ resource: 'perpetual-products', pagination: { mode: 'off' }, queryOptions: { enabled: kind === 'perpetual' } });
  if (kind === 'subscription') {
    if (!plans.query.isSuccess) return null;
    return plans.result.data.map((plan) => ({
      priceId: plan.id,
      name: plan.interval === 'year' ? t('pages.choosePlan.yearly') : t('pages.choosePlan.monthly'),
      amount: plan.unitPrice.amount,
      currencyCode: plan.unitPrice.currencyCode,
      interval: plan.interval,
      defaultDiscountId: plan.discount?.id ?? null,
    }));
  }
  if (!products.query.isSuccess) return null;
  return products.result.data.flatMap((product) =>
    product.prices.map((price) => ({
      priceId: price.id,
      name: product.name,
      amount: price.unitPrice.amount,
      currencyCode: price.unitPrice.currencyCode,
      interval: null,
      defaultDiscountId: product.discount?.id ?? null,
    })),
  );
}
