import type { CheckoutResponse, Discount, PerpetualLicence, Plan, PreloadResponse } from '../../contract/billing.js';
import type { Invoice, PlanChangePreview, Subscription } from '../../contract/subscription.js';
import { http } from '../../providers/index.js';

/** The billing calls of the signed-in pages (spec section 7), typed by the shared contract. */
export const billingApi = {
  plans: () => http<Plan[]>('/paddle/list-plans'),
  subscriptionPreload: (discountId?: string) => http<PreloadResponse>('/subscription/preload', { method: 'POST', body: discountId ? { discountId } : {} }),
  perpetualProducts: () => http<PerpetualProduct[]>('/perpetual/products'),
  subscription: () => http<Subscription | null>('/subscription/user'),
  checkout: (priceId: string, discountId: string | null) => http<CheckoutResponse>('/paddle/checkout', { method: 'POST', body: { priceId, discountId } }),
  discountByCode: (code: string, humbleBundle = false) =>
    http<Discount>(`/perpetual/discount-object-by-code/?discountCode=${encodeURIComponent(code)}${humbleBundle ? '&humbleBundle=true' : ''}`),
  cancel: () => http<Subscription>('/subscription/cancel', { method: 'POST' }),
  continue: () => http<Subscription>('/subscription/continue', { method: 'POST' }),
  previewChange: (interval: 'month' | 'year') => http<PlanChangePreview>('/subscription/change/preview', { method: 'POST', body: { interval } }),
  change: (interval: 'month' | 'year') => http<Subscription>('/subscription/change', { method: 'POST', body: { interval } }),
  paymentMethod: () => http<{ transactionId: string }>('/subscription/payment-method', { method: 'POST' }),
  approve: (subscriptionId: string) => http<Subscription>(`/subscription/approve/${encodeURIComponent(subscriptionId)}`),
  invoices: () => http<Invoice[]>('/subscription/billing/invoice'),
  licences: () => http<PerpetualLicence[]>('/perpetual/license'),
};

export interface PerpetualProduct {
  id: string;
  name: string;
  description: string | null;
  custom_data: { shapelabRelease: string };
  prices: { id: string; description: string; unitPrice: { amount: number; currencyCode: string } }[];
  discount: { id: string } | null;
}
