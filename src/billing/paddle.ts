import { initializePaddle, type Paddle, type PaddleEventData } from '@paddle/paddle-js';
import type { PaddleConfig } from '../../contract/billing.js';
import { useEffect, useRef } from 'react';
import { http, session } from '../../providers/index.js';

let loading: Promise<Paddle> | null = null;
let listener: ((event: PaddleEventData) => void) | null = null;

function loadScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`The payment script ${src} did not load`));
    document.head.appendChild(script);
  });
}

/**
 * Paddle.js, loaded once per page: the environment and client token come from the server; offline, the
 * stand-in script is loaded first, because `@paddle/paddle-js` uses `window.PaddleBillingV1` when it
 * exists and would otherwise go to Paddle's CDN (and remember a failure for good). Every event goes to
 * the one listener the current checkout page has set. Issue 47: never in a read-only view of a customer's
 * account: no payment frame opens there (the server refuses the checkouts as well).
 */
export function loadPaddle(): Promise<Paddle> {
  if (session.isReadOnlyView()) return Promise.reject(Object.assign(new Error('No payment in a read-only view'), { messageKey: 'READ_ONLY_VIEW' }));
  loading ??= (async () => {
    const config = await http<PaddleConfig>('/paddle/config', { noAuth: true });
    if (config.sandboxScript && !window.PaddleBillingV1) await loadScript(config.sandboxScript);
    const paddle = await initializePaddle({
      environment: config.environment,
      token: config.clientToken,
      eventCallback: (event) => listener?.(event),
    });
    if (!paddle) throw new Error('Paddle.js did not initialise');
    return paddle;
  })();
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

/** Sets where the provider's events go (the open checkout page); returns the undo. */
export function listenToPaddle(handler: (event: PaddleEventData) => void): () => void {
  listener = handler;
  return () => {
    if (listener === handler) listener = null;
  };
}

/**
 * Whether the calling page has opened the provider's overlay (the page sets `current` when it does), and the
 * overlay closed when the page is left (Back, a link): it lives outside React and would otherwise cover the
 * next screen and take its clicks.
 */
export function useCheckoutOverlay(): { current: boolean } {
  const opened = useRef(false);
  useEffect(
    () => () => {
      if (opened.current) void loadPaddle().then((paddle) => paddle.Checkout.close());
    },
    [],
  );
  return opened;
}
