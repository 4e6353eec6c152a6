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
const KNOWN: Record<string, { key: MessageKey; status: number }> = {
  discount_expired: { key: 'DISCOUNT_EXPIRED', status: 400 },
  discount_archived: { key: 'DISCOUNT_ARCHIVED', status: 400 },
  discount_usage_limit_exceeded: { key: 'DISCOUNT_USAGE_LIMIT_EXCEEDED', status: 400 },
  // A plan change whose prorated charge cannot be collected now: too small, declined, or a payment
  // still outstanding or in progress. The user can try again later.
  subscription_update_transaction_balance_less_than_charge_limit: { key: 'PRORATION_NOT_CHARGEABLE', status: 409 },
  subscription_payment_declined: { key: 'PRORATION_NOT_CHARGEABLE', status: 409 },
  subscription_outstanding_transaction: { key: 'PRORATION_NOT_CHARGEABLE', status: 409 },
  subscription_locked_processing: { key: 'PRORATION_NOT_CHARGEABLE', status: 409 },
  subscription_credit_creation_against_processing_transaction: { key: 'PRORATION_NOT_CHARGEABLE', status: 409 },
  subscription_locked_renewal: { key: 'SUBSCRIPTION_LOCKED', status: 409 },
  subscription_locked_pending_changes: { key: 'SUBSCRIPTION_CHANGE_PENDING', status: 409 },
  subscription_update_when_canceled: { key: 'SUBSCRIPTION_NOT_FOUND', status: 404 },
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
      if (known) throw new AppError(known.key, known.status, { cause: error });
      if (error.code === 'not_found') throw new AppError(notFound, 404, { cause: error });
    }
    throw new AppError('BILLING_UNAVAILABLE', 503, { cause: error });
  }
}
