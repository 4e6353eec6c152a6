import type { CheckoutEventsData, PaddleEventData } from '@paddle/paddle-js';

/** What a checkout page does with the provider's events; every handler is optional. */
export interface CheckoutHandlers {
  loaded?(data: CheckoutEventsData): void;
  /** Items, discount, customer or address changed: the summary should show `data`. */
  updated?(data: CheckoutEventsData): void;
  paymentStarted?(data: CheckoutEventsData): void;
  paymentFailed?(data: CheckoutEventsData | undefined): void;
  completed?(data: CheckoutEventsData): void;
  closed?(): void;
  /** A warning on what was entered (a discount that no longer applies): the discount goes back to the default. */
  warning?(warning: { code: string; detail: string }): void;
  /** A checkout or payment error: Paddle's code and detail. */
  error?(error: { code: string; detail: string }): void;
}

/**
 * The one dispatcher of the provider's checkout events (spec section 4): Paddle.js calls a single
 * `eventCallback`, and this turns each event name into the page's handler. Unknown events are ignored,
 * as Paddle asks (new ones may appear at any time).
 */
export function createCheckoutDispatcher(handlers: () => CheckoutHandlers): (event: PaddleEventData) => void {
  return (event) => {
    const on = handlers();
    const data = event.data;
    // `checkout.warning` is sent by Paddle.js but missing from its type list.
    switch (event.name as string | undefined) {
      case 'checkout.loaded':
        if (data) on.loaded?.(data);
        return;
      case 'checkout.updated':
      case 'checkout.items.updated':
      case 'checkout.items.removed':
      case 'checkout.customer.created':
      case 'checkout.customer.updated':
      case 'checkout.discount.applied':
      case 'checkout.discount.removed':
        if (data) on.updated?.(data);
        return;
      case 'checkout.payment.initiated':
        if (data) on.paymentStarted?.(data);
        return;
      case 'checkout.payment.failed':
        on.paymentFailed?.(data);
        return;
      case 'checkout.completed':
        if (data) on.completed?.(data);
        return;
      case 'checkout.closed':
        on.closed?.();
        return;
      case 'checkout.warning':
        on.warning?.({ code: event.code ?? 'unknown', detail: event.detail ?? '' });
        return;
      case 'checkout.error':
      case 'checkout.payment.error':
        on.error?.({ code: event.code ?? 'unknown', detail: event.detail ?? '' });
        return;
      default:
        return;
    }
  };
}
