/**
 * The offline stand-in for Paddle.js (Paddle Billing v1), served by the portal at /paddle-sandbox/paddle.js
 * when the Paddle stand-in is on. It sets `window.PaddleBillingV1`, which `@paddle/paddle-js` uses
 * instead of loading Paddle's CDN script, so the SPA runs its real checkout code against it.
 *
 * The checkout is an iframe (inline in `settings.frameTarget`, or an overlay) showing the stand-in's test
 * checkout page; the page tells this script what happens through postMessage, and this script passes it
 * on to the `eventCallback` with Paddle's event names and payloads.
 *
 * Browser code: compiled by esbuild when served (server/sandbox/checkout-routes.ts), never bundled.
 */
import type {
  CheckoutEventsData,
  CheckoutLineItem,
  CheckoutOpenOptions,
  CheckoutSettings,
  Paddle,
  PaddleEventData,
  PaddleSetupOptions,
  PricePreviewParams,
  PricePreviewResponse,
} from '@paddle/paddle-js';

type OpenRequest = CheckoutOpenOptions & { discountId?: string | null; discountCode?: string | null };
type FrameMessage = { source: 'paddle-sandbox-checkout'; name: string; data?: CheckoutEventsData; height?: number; error?: { code: string; detail: string } };

const scriptUrl = new URL((document.currentScript as HTMLScriptElement | null)?.src ?? '/paddle-sandbox/paddle.js', window.location.href);
const root = new URL('./', scriptUrl);

/** What Initialize and Update were given (the token form: the stand-in has no seller ids). */
type SetupOptions = Omit<Extract<PaddleSetupOptions, { token: string }>, 'token'> & { token?: string };
let options: SetupOptions = {};
let environment = 'sandbox';
let current: { frame: HTMLIFrameElement; holder: HTMLElement; request: OpenRequest; settings: CheckoutSettings; loaded: boolean; pendingEvent: string | null } | null = null;

function emit(event: PaddleEventData): void {
  try {
    options.eventCallback?.(event);
  } catch (error) {
    console.error('[Paddle sandbox] eventCallback threw', error);
  }
}

async function api<T>(path: string, body: Record<string, unknown>): Promise<T> {
  const response = await fetch(new URL(`api/${path}`, root), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: options.token, ...body }),
  });
  const json = (await response.json()) as { data?: T; error?: { type: string; code: string; detail: string; documentation_url: string } };
  if (!response.ok || json.data === undefined) {
    throw Object.assign(new Error(json.error?.detail ?? 'Paddle sandbox error'), json.error ?? { code: 'unknown', detail: 'Unknown error' });
  }
  return json.data;
}

function checkoutError(error: unknown): void {
  const known = error as { type?: string; code?: string; detail?: string; documentation_url?: string };
  emit({
    name: 'checkout.error' as PaddleEventData['name'],
    type: known.type ?? 'request_error',
    code: known.code ?? 'unknown',
    detail: known.detail ?? String(error),
    documentation_url: known.documentation_url ?? '',
  });
}

function frameHolder(settings: CheckoutSettings): HTMLElement {
  if (settings.displayMode === 'inline') {
    const target = settings.frameTarget ? document.getElementsByClassName(settings.frameTarget)[0] : undefined;
    if (!(target instanceof HTMLElement)) throw Object.assign(new Error('frameTarget not found'), { code: 'frame_target_not_found', detail: `No element with class "${settings.frameTarget ?? ''}"` });
    return target;
  }
  const overlay = document.createElement('div');
  overlay.className = 'paddle-sandbox-overlay';
  overlay.style.cssText = 'position:fixed;inset:0;z-index:2147483647;background:rgba(0,0,0,.6);display:flex;align-items:center;justify-content:center;';
  document.body.appendChild(overlay);
  return overlay;
}

/** Creates (or re-creates, after an update) the checkout's transaction and shows it in the frame. */
async function show(request: OpenRequest, event: string | null): Promise<void> {
  const settings: CheckoutSettings = { ...options.checkout?.settings, ...request.settings };
  const customer = request.customer as { id?: string; email?: string; address?: { id?: string } } | undefined;
  let transactionId: string;
  try {
    ({ transactionId } = await api<{ transactionId: string }>('checkout', {
      transactionId: request.transactionId ?? null,
      items: request.items ?? null,
      customerId: customer?.id ?? options.pwCustomer?.id ?? null,
      addressId: customer?.address?.id ?? null,
      customData: request.customData ?? null,
      discountId: request.discountId ?? null,
      discountCode: request.discountCode ?? null,
    }));
  } catch (error) {
    checkoutError(error);
    return;
  }
  const query = new URLSearchParams({
    txn: transactionId,
    token: options.token ?? '',
    theme: settings.theme ?? 'light',
    locale: settings.locale ?? navigator.language,
    variant: settings.variant ?? 'multi-page',
    displayMode: settings.displayMode ?? 'overlay',
  });
  const src = new URL(`checkout?${query}`, root).toString();
  if (current) {
    current.request = request;
    current.settings = settings;
    current.pendingEvent = event;
    current.frame.src = src;
    return;
  }
  let holder: HTMLElement;
  try {
    holder = frameHolder(settings);
  } catch (error) {
    checkoutError(error);
    return;
  }
  const frame = document.createElement('iframe');
  frame.name = 'paddle_frame';
  frame.className = 'paddle-frame paddle-frame-sandbox';
  frame.title = 'Paddle checkout';
  frame.setAttribute('allow', 'payment');
  const height = settings.frameInitialHeight ?? 450;
  frame.style.cssText =
    settings.displayMode === 'inline'
      ? `width:100%;height:${height}px;border:none;display:block;${settings.frameStyle ?? ''}`
      : 'width:min(480px,100vw);height:min(640px,100vh);border:none;border-radius:8px;background:#fff;';
  frame.src = src;
  holder.appendChild(frame);
  current = { frame, holder, request, settings, loaded: false, pendingEvent: null };
}

function close(): void {
  if (!current) return;
  const { frame, holder, settings } = current;
  frame.remove();
  if (settings.displayMode !== 'inline') holder.remove();
  current = null;
  emit({ name: 'checkout.closed' as PaddleEventData['name'] });
}

window.addEventListener('message', (message: MessageEvent<FrameMessage>) => {
  if (!current || message.source !== current.frame.contentWindow || message.origin !== root.origin) return;
  const { name, data, height } = message.data ?? {};
  if (name === 'resize' && typeof height === 'number') {
    current.frame.style.height = `${Math.max(height, current.settings.frameInitialHeight ?? 0)}px`;
    return;
  }
  if (name === 'ready') {
    // The frame has (re)loaded its transaction: the first load is checkout.loaded, later ones are updates.
    const event = current.loaded ? (current.pendingEvent ?? 'checkout.updated') : 'checkout.loaded';
    current.loaded = true;
    current.pendingEvent = null;
    emit({ name: event as PaddleEventData['name'], ...(data ? { data } : {}) });
    return;
  }
  if (name === 'close') {
    close();
    return;
  }
  if (name === 'checkout.payment.error' || name === 'checkout.error') {
    emit({ name: name as PaddleEventData['name'], type: 'request_error', code: message.data.error?.code ?? 'unknown', detail: message.data.error?.detail ?? '', documentation_url: '' });
    return;
  }
  if (name) emit({ name: name as PaddleEventData['name'], ...(data ? { data } : {}) });
  if (name === 'checkout.completed' && current.settings.successUrl) window.location.assign(current.settings.successUrl);
});

const camel = (key: string) => key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
function camelize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelize);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [camel(key), camelize(inner)]));
  return value;
}

const paddle = {
  Initialized: false,
  Status: { libraryVersion: 'sandbox-1' },
  Version: 'v1',
  Environment: {
    set(value: string) {
      environment = value;
    },
  },
  Initialize(setup: PaddleSetupOptions) {
    if (paddle.Initialized) throw new Error('[Paddle sandbox] already initialized; use Update');
    options = { ...(setup as SetupOptions) };
    paddle.Initialized = true;
  },
  Update(update: Partial<PaddleSetupOptions>) {
    options = { ...options, ...(update as SetupOptions) };
  },
  Setup(setup: PaddleSetupOptions) {
    paddle.Initialize(setup);
  },
  Checkout: {
    open(request: OpenRequest) {
      if (current) close();
      void show(request, null);
    },
    updateCheckout(update: Partial<OpenRequest>) {
      if (!current) return;
      void show({ ...current.request, ...update } as OpenRequest, 'checkout.updated');
    },
    updateItems(items: CheckoutLineItem[]) {
      if (!current) return;
      const { transactionId: _, ...rest } = current.request as OpenRequest & { transactionId?: string };
      void show({ ...rest, items } as OpenRequest, 'checkout.items.updated');
    },
    close,
  },
  Spinner: { show() {}, hide() {} },
  async PricePreview(params: PricePreviewParams): Promise<PricePreviewResponse> {
    return { data: camelize(await api('price-preview', params as unknown as Record<string, unknown>)) } as PricePreviewResponse;
  },
  get environment() {
    return environment;
  },
};

window.PaddleBillingV1 = paddle as unknown as Paddle;
