import { EU_COUNTRIES, isVatNumberFormat } from '../../contract/vat.js';

/**
 * Sales tax the stand-in charges, by the buyer's country: standard VAT rates in the EU and the UK, none
 * elsewhere. A business in the EU with a VAT number of valid format is reverse-charged (no tax), as
 * Paddle does. Rates are percentages.
 */
export const VAT_RATES: Readonly<Record<string, number>> = {
  AT: 20, BE: 21, BG: 20, CY: 19, CZ: 21, DE: 19, DK: 25, EE: 22, ES: 21, FI: 25.5, FR: 20, GR: 24, HR: 25,
  HU: 27, IE: 23, IT: 22, LT: 21, LU: 17, LV: 21, MT: 18, NL: 21, PL: 23, PT: 23, RO: 19, SE: 25, SI: 22,
  SK: 23, GB: 20, NO: 25, CH: 8.1,
};

export function taxRate(countryCode: string | null, business: { taxIdentifier: string | null } | null): number {
  if (!countryCode) return 0;
  if (EU_COUNTRIES.has(countryCode) && business?.taxIdentifier && isVatNumberFormat(countryCode, business.taxIdentifier)) return 0;
  return VAT_RATES[countryCode] ?? 0;
}

/** Paddle's display of an amount in minor units (both currencies here have two decimals). */
export function formatMoney(minorUnits: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(minorUnits / 100);
}
