/**
 * Prices as the portal shows them (spec section 9): two decimals, excluding tax, in the price's currency
 * (USD or HUF), formatted for the reader's locale; an unknown price shows as empty, never as 0.
 * Amounts arrive in minor units (Paddle's two-decimal units for both currencies).
 */
export function formatPrice(amount: number | null | undefined, currencyCode: string, locale: string): string {
  if (amount === null || amount === undefined || !Number.isFinite(amount)) return '';
  return new Intl.NumberFormat(locale, { style: 'currency', currency: currencyCode, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
    amount / 100,
  );
}

/** A Paddle.js checkout amount (major units, a number) in minor units, without float drift. */
export function toMinor(major: number): number {
  return Math.round(major * 100);
}
