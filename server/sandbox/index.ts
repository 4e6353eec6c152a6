import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../clock.js';
import type { BillingConfig } from '../config.js';
import { sandboxRoutes } from './api.js';
import { createHandler } from './http.js';
import { purchases, type SandboxRecord } from './purchases.js';
import { paddleId, SandboxState } from './state.js';
import { signWebhook } from './webhooks.js';

/** Where the stand-in's webhooks go: the raw body and its Paddle-Signature header. */
export type WebhookDelivery = (rawBody: string, signature: string) => Promise<void>;

/**
 * How webhooks are delivered: `ordered` sends each event once, in the order it happened; `chaotic` is
 * the test switch for what Paddle's at-least-once delivery allows: every event twice, newest first.
 */
export type DeliveryMode = 'ordered' | 'chaotic';

/** Where the shared stand-in tells instances how to reach it. */
export const CONNECTION_PATH = '/sandbox/connection';

/** How often the stand-in looks for renewals that the clock has made due. */
const TICK_MS = 1000;
/** How long chaotic delivery holds events before sending them. */
const CHAOTIC_HOLD_MS = 2000;

/**
 * The offline stand-in for Paddle Billing: the subset of its HTTP API the server calls, reached through
 * the real SDK (its `environment` set to this base URL). Never on in production (server/config.ts).
 */
export async function startPaddleSandbox(options: {
  host: string;
  clock: Clock;
  dataFile: string | null;
  delivery?: DeliveryMode;
  invoiceBaseUrl?: string;
  /** A fixed port (the shared stand-in); 0 or none picks a free one. */
  port?: number;
  /**
   * The shared stand-in (`npm run paddle-standin`) tells instances its API key and webhook secret at
   * `GET /sandbox/connection`, so `PADDLE_STANDIN_URL` is all they need. Development and tests only:
   * the stand-in is a local test double and production refuses it.
   */
  shareConnection?: boolean;
}) {
  const apiKey = `sandbox_${randomBytes(24).toString('hex')}`;
  const webhookSecret = `pdl_ntfset_${randomBytes(16).toString('hex')}`;
  const state = new SandboxState(options.dataFile);
  let deliver: WebhookDelivery | null = null;
  let mode: DeliveryMode = options.delivery ?? 'ordered';
  let queued: string[] = [];
  let sending: Promise<void> = Promise.resolve();
  let lastOccurredAt = 0;

  /** Sends what is queued, one at a time, each signed with the wall clock just before it goes. */
  const release = () => {
    const batch = queued;
    queued = [];
    if (!deliver || batch.length === 0) return;
    const send = deliver;
    const order = mode === 'chaotic' ? [...batch.slice().reverse(), ...batch] : batch;
    sending = order.reduce(
      (previous, rawBody) =>
        previous.then(() => send(rawBody, signWebhook(rawBody, webhookSecret, Math.floor(Date.now() / 1000)))).catch(() => undefined),
      sending,
    );
  };

  /** An event as Paddle sends it, after the answer to the request that caused it. */
  const emit = (type: string, data: SandboxRecord) => {
    // Events of one entity never share a moment, so their order is always known.
    const occurredAt = Math.max(options.clock.now().getTime(), lastOccurredAt + 1);
    lastOccurredAt = occurredAt;
    // The entity as sent is the entity as of the event (and as the API answers after it).
    if ('updated_at' in data) data.updated_at = new Date(occurredAt).toISOString();
    queued.push(
      JSON.stringify({
        event_id: paddleId('evt'),
        event_type: type,
        occurred_at: new Date(occurredAt).toISOString(),
        notification_id: paddleId('ntf'),
        data,
      }),
    );
    // Chaotic delivery holds events a while, so that those of several requests can arrive out of order.
    if (queued.length === 1) {
      if (mode === 'chaotic') setTimeout(release, CHAOTIC_HOLD_MS).unref();
      else setImmediate(release);
    }
  };

  const { routes, tick } = purchases(state, options.clock, emit, options.invoiceBaseUrl);
  const handle = createHandler(apiKey, [...sandboxRoutes(state, options.clock), ...routes], tick);
  // The handler answers every failure itself (a 500 with the error), so its promise has nothing left to report.
  const server = createServer((req, res) => {
    if (options.shareConnection && req.method === 'GET' && req.url === CONNECTION_PATH) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ apiKey, webhookSecret }));
      return;
    }
    void handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host, resolve));
  const timer = setInterval(() => void tick(), TICK_MS);
  timer.unref();
  const { port } = server.address() as AddressInfo;
  const host = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  return {
    baseUrl: `http://${host}:${port}`,
    apiKey,
    /** The secret the stand-in signs its webhooks with. */
    webhookSecret,
    state,
    /** Sets where webhooks go (the portal's POST /api/paddle/webhook, over HTTP or, in tests, inject). */
    deliverTo(delivery: WebhookDelivery) {
      deliver = delivery;
    },
    setDelivery(next: DeliveryMode) {
      mode = next;
    },
    /** Renewals and scheduled cancellations the clock has made due, now rather than at the next tick. */
    tick,
    /** Waits until every event so far has been delivered. */
    async flush() {
      for (;;) {
        release();
        const current = sending;
        await current;
        if (queued.length === 0 && sending === current) return;
      }
    },
    close: () => {
      clearInterval(timer);
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The billing settings that point the server at a running stand-in. */
export function sandboxBilling(sandbox: { baseUrl: string; apiKey: string; webhookSecret: string }): Omit<BillingConfig, 'sandbox'> {
  return { apiKey: sandbox.apiKey, environment: sandbox.baseUrl, clientToken: 'test_sandbox_client_token', webhookSecret: sandbox.webhookSecret };
}

/** The billing settings of an instance pointed at a shared stand-in (`PADDLE_STANDIN_URL`), asked of it. */
export async function sharedSandboxBilling(standinUrl: string): Promise<Omit<BillingConfig, 'sandbox'>> {
  const baseUrl = standinUrl.replace(/\/$/, '');
  const response = await fetch(`${baseUrl}${CONNECTION_PATH}`);
  if (!response.ok) throw new Error(`the Paddle stand-in at ${baseUrl} answered ${response.status}; is it \`npm run paddle-standin\`?`);
  const { apiKey, webhookSecret } = (await response.json()) as { apiKey: string; webhookSecret: string };
  return sandboxBilling({ baseUrl, apiKey, webhookSecret });
}
