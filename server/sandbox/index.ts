import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../clock.js';
import type { BillingConfig } from '../config.js';
import { sandboxRoutes } from './api.js';
import { createHandler } from './http.js';
import { purchaseRoutes, type SandboxRecord } from './purchases.js';
import { paddleId, SandboxState } from './state.js';
import { signWebhook } from './webhooks.js';

/** Where the stand-in's webhooks go: the raw body and its Paddle-Signature header. */
export type WebhookDelivery = (rawBody: string, signature: string) => Promise<void>;

/**
 * The offline stand-in for Paddle Billing: the subset of its HTTP API the server calls, reached through
 * the real SDK (its `environment` set to this base URL). Never on in production (server/config.ts).
 */
export async function startPaddleSandbox(options: { host: string; clock: Clock; dataFile: string | null }) {
  const apiKey = `sandbox_${randomBytes(24).toString('hex')}`;
  const webhookSecret = `pdl_ntfset_${randomBytes(16).toString('hex')}`;
  const state = new SandboxState(options.dataFile);
  let deliver: WebhookDelivery | null = null;
  const pending = new Set<Promise<void>>();

  /** Sends an event as Paddle does: signed with the wall clock, after the answer, at least once. */
  const emit = (type: string, data: SandboxRecord) => {
    const rawBody = JSON.stringify({
      event_id: paddleId('evt'),
      event_type: type,
      occurred_at: options.clock.now().toISOString(),
      notification_id: paddleId('ntf'),
      data,
    });
    if (!deliver) return;
    const send = deliver;
    const delivery: Promise<void> = Promise.resolve()
      .then(() => send(rawBody, signWebhook(rawBody, webhookSecret, Math.floor(Date.now() / 1000))))
      .catch(() => undefined)
      .finally(() => pending.delete(delivery));
    pending.add(delivery);
  };

  const server = createServer(createHandler(apiKey, [...sandboxRoutes(state, options.clock), ...purchaseRoutes(state, options.clock, emit)]));
  await new Promise<void>((resolve) => server.listen(0, options.host, resolve));
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
    /** Waits for the webhooks under way. */
    async flush() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The billing settings that point the server at a running stand-in. */
export function sandboxBilling(sandbox: { baseUrl: string; apiKey: string; webhookSecret: string }): Omit<BillingConfig, 'sandbox'> {
  return { apiKey: sandbox.apiKey, environment: sandbox.baseUrl, clientToken: 'test_sandbox_client_token', webhookSecret: sandbox.webhookSecret };
}
