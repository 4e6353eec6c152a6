import countries from 'i18n-iso-countries';

/** Every ISO 3166-1 alpha-2 code, sorted; names come from Intl.DisplayNames in the reader's language. */
export const COUNTRY_CODES: readonly string[] = Object.keys(countries.getAlpha2Codes()).sort();

const known = new Set(COUNTRY_CODES);

/** True for an ISO 3166-1 alpha-2 code (any case); 'region does not exist' otherwise. */
export function isKnownRegion(code: string): boolean {
  return known.has(code.trim().toUpperCase());
}
