import type { MessageKey } from '../contract/errors.js';

/** A failure the client is meant to see: a messageKey (translated in locales/) and an HTTP status. */
export class AppError extends Error {
  constructor(
    readonly messageKey: MessageKey,
    readonly statusCode: number,
    options?: { cause?: unknown; retryAfterSeconds?: number },
  ) {
    super(messageKey, options);
    this.name = 'AppError';
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }

  /** For a 429: when the client may try again (the `Retry-After` header). */
  readonly retryAfterSeconds: number | undefined;
}
