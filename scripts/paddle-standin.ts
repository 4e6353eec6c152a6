import path from 'node:path';
import { SystemClock } from '../server/clock.js';
import { startPaddleSandbox, type DeliveryMode } from '../server/sandbox/index.js';

/**
 * `npm run paddle-standin`: the offline Paddle stand-in on its own, for several portal instances at once
 * (README, "Running several instances"). Point every instance at it with `PADDLE_STANDIN_URL`; it sends
 * its webhooks to one address, the load balancer's, as Paddle sends them to one notification destination.
 *
 *   PADDLE_STANDIN_PORT          port to listen on (default 4010; 0 picks a free one)
 *   PADDLE_STANDIN_HOST          address to listen on (default 127.0.0.1)
 *   PADDLE_STANDIN_WEBHOOK_URL   where webhooks go (default http://127.0.0.1:3000/api/paddle/webhook)
 *   PADDLE_STANDIN_DATA          its state file (default data/paddle-standin.json; "none" keeps it in memory)
 *   PADDLE_SANDBOX_DELIVERY      ordered (default) or chaotic
 */
const port = Number(process.env.PADDLE_STANDIN_PORT ?? 4010);
const host = process.env.PADDLE_STANDIN_HOST ?? '127.0.0.1';
const webhookUrl = process.env.PADDLE_STANDIN_WEBHOOK_URL ?? 'http://127.0.0.1:3000/api/paddle/webhook';
const dataSetting = process.env.PADDLE_STANDIN_DATA ?? path.join('data', 'paddle-standin.json');
const delivery: DeliveryMode = process.env.PADDLE_SANDBOX_DELIVERY === 'chaotic' ? 'chaotic' : 'ordered';
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  process.stderr.write('PADDLE_STANDIN_PORT: must be a port number\n');
  process.exit(1);
}
if (!URL.canParse(webhookUrl)) {
  process.stderr.write('PADDLE_STANDIN_WEBHOOK_URL: must be the address of POST /api/paddle/webhook\n');
  process.exit(1);
}

const standin = await startPaddleSandbox({
  host,
  port,
  clock: new SystemClock(),
  dataFile: dataSetting === 'none' ? null : path.resolve(dataSetting),
  delivery,
  invoiceBaseUrl: `${new URL(webhookUrl).origin}/paddle-sandbox/invoices`,
  shareConnection: true,
});
standin.deliverTo(async (rawBody, signature) => {
  // Like Paddle: a delivery that fails is not the stand-in's problem to report; the portal answers 200 once stored.
  await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'paddle-signature': signature }, body: rawBody });
});
process.stdout.write(`Paddle stand-in listening at ${standin.baseUrl}\n  webhooks to ${webhookUrl}\n  instances: PADDLE_STANDIN_URL=${standin.baseUrl}\n`);

const stop = () => {
  void standin.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
