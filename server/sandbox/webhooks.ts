import { createHmac } from 'node:crypto';

/**
 * Paddle's webhook signature: `Paddle-Signature: ts=<unix seconds>;h1=<hex HMAC-SHA256 of "<ts>:<raw body>">`
 * with the notification destination's secret. The stand-in signs its deliveries exactly so.
 */
export function signWebhook(rawBody: string, secret: string, unixSeconds: number): string {
  const h1 = createHmac('sha256', secret).update(`${unixSeconds}:${rawBody}`).digest('hex');
  return `ts=${unixSeconds};h1=${h1}`;
}
