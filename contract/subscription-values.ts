/**
 * Plain values of the subscription's API that the pages need without its schemas (zod-free, as
 * tests/unit/browser-imports.test.ts requires of what the browser loads).
 */

/**
 * Issue 46 item 5: Paddle's dunning as the portal counts it. After a renewal's first failed charge Paddle
 * tries the saved card again 1, 3, 5 and 7 days later (the offline stand-in to the minute; a live Paddle
 * account's Payment Recovery is set to the same week); when the last try fails it cancels the subscription.
 * The customer is mailed at the first failure and FINAL_NOTICE_DAYS before the last try.
 */
export const PAYMENT_RETRY_DAYS = [1, 3, 5, 7] as const;
export const FINAL_NOTICE_DAYS = 1;

/** Issue 46 item 8: why a customer cancels (the cancel dialog's choices, and admin analytics' rows). */
export const CANCEL_REASONS = ['too_expensive', 'not_using', 'missing_features', 'technical_problems', 'switching', 'other'] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

/** Admin analytics' cancellation rows: each reason, and 'none' when none was given (an admin's cancellation). */
export const CANCELLATION_ROWS = [...CANCEL_REASONS, 'none'] as const;
export type CancellationRow = (typeof CANCELLATION_ROWS)[number];

/**
 * Issue 46 item 6: a saved card works through the last day of its expiry month (UTC) and is warned of
 * CARD_WARNING_DAYS before that: the server's one mail and the home's "needs your attention" follow this rule.
 */
export const CARD_WARNING_DAYS = 30;

/** The moment a card of `month`/`year` stops working: when the next month begins (UTC). */
export function cardExpiresAt(month: number, year: number): Date {
  return new Date(Date.UTC(year, month, 1));
}
