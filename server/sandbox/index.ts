import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../clock.js';
import type { BillingConfig } from '../config.js';
import { sandboxRoutes } from './api.js';
import { createHandler } from './http.js';
import { SandboxState } from './state.js';

/**
 * The offline stand-in for Paddle Billing: the subset of its HTTP API the server calls, reached through
 * the real SDK (its `environment` set to this base URL). Never on in production (server/config.ts).
 */
export async function startPaddleSandbox(options: { host: string; clock: Clock; dataFile: string | null }) {
  const apiKey = `sandbox_${randomBytes(24).toString('hex')}`;
  const state = new SandboxState(options.dataFile);
  const server = createServer(createHandler(apiKey, sandboxRoutes(state, options.clock)));
  await new Promise<void>((resolve) => server.listen(0, options.host, resolve));
  const { port } = server.address() as AddressInfo;
  const host = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  return {
    baseUrl: `http://${host}:${port}`,
    apiKey,
    /** The secret the stand-in signs its webhooks with (issue "Paddle Billing": webhooks). */
    webhookSecret: `pdl_ntfset_${randomBytes(16).toString('hex')}`,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The billing settings that point the server at a running stand-in. */
export function sandboxBilling(sandbox: { baseUrl: string; apiKey: string; webhookSecret: string }): Omit<BillingConfig, 'sandbox'> {
  return { apiKey: sandbox.apiKey, environment: sandbox.baseUrl, clientToken: 'test_sandbox_client_token', webhookSecret: sandbox.webhookSecret };
}
