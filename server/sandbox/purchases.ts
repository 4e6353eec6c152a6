import type { Clock } from '../clock.js';
import type { Route } from './http.js';
import { tick } from './schedule.js';
import { purchaseRoutes } from './purchase-routes.js';
import { purchaseStateOf, type EmitEvent } from './purchase-state.js';
import type { SandboxState } from './state.js';

export { MINIMUM_CHARGE, TEST_CARDS } from './lifecycle.js';
export type { EmitEvent, SandboxRecord } from './purchase-state.js';

/**
 * Transactions and subscriptions of the stand-in: checkout transactions and paying them with a test card
 * or PayPal (the stand-in's checkout calls `POST /sandbox/transactions/{id}/pay`), the subscription a paid
 * recurring item starts (with the price's trial), renewals as the clock passes `next_billed_at`, plan
 * changes prorated to the minute, cancelling at the period's end and continuing, the payment method
 * update transaction, and the webhooks Paddle sends for each.
 *
 * By concern: ./pricing.ts (prices, totals, tax, discounts, previews), ./lifecycle.ts (transactions and
 * subscriptions moving through their states, renewals, proration, refunds), ./purchase-routes.ts (the
 * HTTP surface the SDK calls), sharing ./purchase-state.ts.
 */
export function purchases(
  state: SandboxState,
  clock: Clock,
  emit: EmitEvent,
  /** Where invoice PDFs are served (the portal's /paddle-sandbox/invoices outside tests). */
  invoiceBaseUrl = 'https://sandbox-invoices.invalid',
): { routes: Route[]; tick: () => void } {
  const purchaseState = purchaseStateOf(state, clock, emit, invoiceBaseUrl);
  return { routes: purchaseRoutes(purchaseState), tick: () => tick(purchaseState) };
}
