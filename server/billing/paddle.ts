import { ApiError, Environment, LogLevel, Paddle } from '@paddle/paddle-node-sdk';
import type { MessageKey } from '../../contract/errors.js';
import type { BillingConfig } from '../config.js';
import { AppError } from '../errors.js';

/**
 * The Paddle Billing client: the real SDK, pointed at Paddle (sandbox or production) or at the offline
 * stand-in's base URL. Null when billing is not configured; callers answer BILLING_UNAVAILABLE then.
 */
export function createPaddle(config: BillingConfig): Paddle | null {
  if (!config.apiKey || !config.environment) return null;
  const environment =
    config.environment === 'production' ? Environment.production : config.environment === 'sandbox' ? Environment.sandbox : config.environment;
  return new Paddle(config.apiKey, { environment: environment as Environment, logLevel: LogLevel.none });
}

/** Paddle's error codes that the portal names to the user; anything else is "billing unavailable". */
const KNOWN: Record<string, MessageKey> = {
  discount_expired: 'DISCOUNT_EXPIRED',
  discount_archived: 'DISCOUNT_ARCHIVED',
  discount_usage_limit_exceeded: 'DISCOUNT_USAGE_LIMIT_EXCEEDED',
};

/**
 * Runs a call to Paddle, turning its failures into AppErrors: a known error code into its messageKey,
 * `not_found` into `notFound`, and anything else (network, 5xx, unexpected) into BILLING_UNAVAILABLE.
 */
export async function callPaddle<T>(paddle: Paddle | null, call: (paddle: Paddle) => Promise<T>, notFound: MessageKey = 'PRICE_NOT_FOUND'): Promise<T> {
  if (!paddle) throw new AppError('BILLING_UNAVAILABLE', 503);
  try {
    return await call(paddle);
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof ApiError) {
      const known = KNOWN[error.code];
      if (known) throw new AppError(known, 400, { cause: error });
      if (error.code === 'not_found') throw new AppError(notFound, 404, { cause: error });
    }
    throw new AppError('BILLING_UNAVAILABLE', 503, { cause: error });
  }
}
