import type { z } from 'zod';
import type {
  CheckoutResponse,
  Discount,
  licenceReturnResponseSchema,
  PerpetualLicence,
  perpetualProductSchema,
  Plan,
  PreloadResponse,
} from '../../contract/billing.js';
import type { Invoice, invoiceLinkSchema, PaymentMethod, PlanChangePreview, Subscription } from '../../contract/subscription.js';
import { http } from '../../providers/index.js';

export type PerpetualProduct = z.infer<typeof perpetualProductSchema>;
export type LicenceReturn = z.infer<typeof licenceReturnResponseSchema>;
type InvoiceLink = z.infer<typeof invoiceLinkSchema>;

/** The billing calls of the signed-in pages (spec section 7), typed by the shared contract. */
export const billingApi = {
  plans: () => http<Plan[]>('/paddle/list-plans'),
  subscriptionPreload: (discountId?: string) => http<PreloadResponse>('/subscription/preload', { method: 'POST', body: discountId ? { discountId } : {} }),
  perpetualProducts: () => http<PerpetualProduct[]>('/perpetual/products'),
  subscription: () => http<Subscription | null>('/subscription/user'),
  checkout: (priceId: string, discountId: string | null) => http<CheckoutResponse>('/paddle/checkout', { method: 'POST', body: { priceId, discountId } }),
  discountByCode: (code: string, humbleBundle = false) =>
    http<Discount>(`/perpetual/discount-object-by-code/?discountCode=${encodeURIComponent(code)}${humbleBundle ? '&humbleBundle=true' : ''}`),
  /** Spec section 7: the discount a price carries for an owner of the previous release (the upgrade discount), or null. */
  discountForPrice: (priceId: string, eligibleForDiscount: boolean) =>
    http<Discount | null>(`/perpetual/get-discount-by-price-id?priceId=${encodeURIComponent(priceId)}&eligibleForDiscount=${String(eligibleForDiscount)}`, {
      noAuth: true,
    }),
  /** Cancel at the end of the period; with `refund` (offered within 14 days of the first payment) it ends now and is refunded. */
  cancel: (refund = false) => http<Subscription>('/subscription/cancel', { method: 'POST', body: refund ? { refund: true } : {} }),
  continue: () => http<Subscription>('/subscription/continue', { method: 'POST' }),
  previewChange: (interval: 'month' | 'year') => http<PlanChangePreview>('/subscription/change/preview', { method: 'POST', body: { interval } }),
  change: (interval: 'month' | 'year') => http<Subscription>('/subscription/change', { method: 'POST', body: { interval } }),
  /** How the subscription is paid now (its latest captured payment), or null. */
  currentPaymentMethod: () => http<PaymentMethod | null>('/subscription/payment-method'),
  /** The provider transaction whose checkout takes a new payment method. */
  paymentMethod: () => http<{ transactionId: string }>('/subscription/payment-method', { method: 'POST' }),
  approve: (subscriptionId: string) => http<Subscription>(`/subscription/approve/${encodeURIComponent(subscriptionId)}`),
  invoices: () => http<Invoice[]>('/subscription/billing/invoice'),
  /**
   * The provider's short-lived link to an invoice PDF, asked for when the user clicks: `invoiceUrl` is the
   * portal's path as an invoice or licence names it (`/api/subscription/billing/invoice/{txn}`).
   */
  invoiceLink: (invoiceUrl: string) => http<InvoiceLink>(invoiceUrl.replace(/^\/api(?=\/)/, '')),
  licences: () => http<PerpetualLicence[]>('/perpetual/license'),
  /** Spec section 9: a licence returned within 14 days is refunded in full and ends at once. */
  returnLicence: (licenceId: string) => http<LicenceReturn>(`/perpetual/license/${encodeURIComponent(licenceId)}/return`, { method: 'POST' }),
};
