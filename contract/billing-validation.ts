import { isKnownRegion } from './countries.js';
import { EU_COUNTRIES, isVatNumberFormat } from './vat.js';

/** A postal code's shape: 2 to 10 letters, digits, spaces or hyphens, starting with a letter or digit. */
export const POSTAL_CODE = /^[A-Za-z0-9][A-Za-z0-9 -]{1,9}$/;

export interface RegionValues {
  country: string | null;
  state: string | null;
  addressLine1: string | null;
  city: string | null;
  postalCode: string | null;
  company: string | null;
  vatNumber: string | null;
}

export type RegionProblem = 'required' | 'regionUnknown' | 'postalCodeInvalid' | 'vatTooShort' | 'vatInvalid' | 'vatNeedsCompany';

/** A VAT number as it is stored and compared: upper case, without spaces, dots or hyphens. */
export const normalizeVat = (value: string | null) => value?.replace(/[\s.-]/g, '').toUpperCase() || null;

/**
 * Spec section 5's rules for a billing region, shared by the screens and the server. The checkout's
 * region and VAT dialog buys as a business, so everything there is required (`business`); billing info
 * asks for the country and postal code, and checks the rest when given. A VAT number needs a company,
 * at least 2 characters and, in the EU, the country's format.
 */
export function regionProblems(values: RegionValues, options: { business: boolean }): Partial<Record<keyof RegionValues, RegionProblem>> {
  const problems: Partial<Record<keyof RegionValues, RegionProblem>> = {};
  const blank = (value: string | null) => !value || value.trim() === '';
  const required: (keyof RegionValues)[] = options.business
    ? ['country', 'postalCode', 'state', 'city', 'addressLine1', 'company', 'vatNumber']
    : ['country', 'postalCode'];
  for (const field of required) if (blank(values[field])) problems[field] = 'required';

  const country = values.country?.trim().toUpperCase() ?? '';
  if (!problems.country && country && !isKnownRegion(country)) problems.country = 'regionUnknown';
  if (!problems.postalCode && values.postalCode && !POSTAL_CODE.test(values.postalCode.trim())) problems.postalCode = 'postalCodeInvalid';
  const vat = normalizeVat(values.vatNumber);
  if (!problems.vatNumber && vat) {
    if (vat.length < 2) problems.vatNumber = 'vatTooShort';
    else if (EU_COUNTRIES.has(country) && !isVatNumberFormat(country, vat)) problems.vatNumber = 'vatInvalid';
    else if (blank(values.company)) problems.company = 'vatNeedsCompany';
  }
  return problems;
}
