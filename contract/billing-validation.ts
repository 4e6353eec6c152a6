import { postcodeValidator, postcodeValidatorExistsForCountry } from 'postcode-validator';
import { isKnownRegion } from './countries.js';
import { checksVatNumbers, isVatNumberFormat } from './vat.js';

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
 * A postal code of `countryCode`: postcode-validator's pattern for the country, letters in any case. The
 * library has no pattern for countries without a national postcode system (Hong Kong, the United Arab
 * Emirates, Qatar, several in Africa and the Caribbean), yet the billing address asks for one: there, as
 * when the country is missing or unknown (a problem named apart), any reasonable code passes: the
 * library's international shape (letters and digits, single spaces or hyphens between them) of 2 to 10
 * characters (a US ZIP+4 code, among the longest, has 10).
 */
export function isPostalCode(countryCode: string | null, postalCode: string): boolean {
  const code = postalCode.trim().toUpperCase();
  const country = countryCode?.trim().toUpperCase() ?? '';
  if (postcodeValidatorExistsForCountry(country)) return postcodeValidator(code, country);
  return code.length >= 2 && code.length <= 10 && postcodeValidator(code, 'INTL');
}

/**
 * The countries where Paddle needs a postal code besides the country to work out tax (Paddle's
 * "Supported countries" page; its address docs: "Paddle only requires a country except in some regions
 * where a ZIP or postal code is also required"). Everywhere else a consumer gives only the country.
 */
export const POSTAL_CODE_COUNTRIES: readonly string[] = ['AU', 'CA', 'DE', 'ES', 'FR', 'GB', 'IN', 'IT', 'NL', 'US'];

/** Whether a buyer in `countryCode` must give a postal code for tax (Paddle's rule above). */
export const needsPostalCode = (countryCode: string | null) => POSTAL_CODE_COUNTRIES.includes(countryCode?.trim().toUpperCase() ?? '');

/**
 * Spec section 5's rules for a billing region, shared by the screens and the server (issue 20 narrows
 * what is required). A consumer needs only what tax needs: the country, and the postal code where Paddle
 * asks for one. A business (`business`: "I'm buying as a business") also names its company, street and
 * town, since an invoice to a business carries its address; its VAT number stays optional (a business
 * outside the EU may have none) but is checked when given. Whatever is given is checked: the postal code
 * must be one of the country's; a VAT number needs a company, at least 2 characters and, where its
 * country's numbers can be checked (the EU, the UK, Switzerland, Norway...), that country's format with
 * correct check digits.
 */
export function regionProblems(values: RegionValues, options: { business: boolean }): Partial<Record<keyof RegionValues, RegionProblem>> {
  const problems: Partial<Record<keyof RegionValues, RegionProblem>> = {};
  const blank = (value: string | null) => !value || value.trim() === '';
  const required: (keyof RegionValues)[] = ['country'];
  if (needsPostalCode(values.country)) required.push('postalCode');
  if (options.business) required.push('company', 'addressLine1', 'city');
  for (const field of required) if (blank(values[field])) problems[field] = 'required';

  const country = values.country?.trim().toUpperCase() ?? '';
  if (!problems.country && country && !isKnownRegion(country)) problems.country = 'regionUnknown';
  if (!problems.postalCode && values.postalCode && !isPostalCode(country, values.postalCode)) problems.postalCode = 'postalCodeInvalid';
  const vat = normalizeVat(values.vatNumber);
  if (!problems.vatNumber && vat) {
    if (vat.length < 2) problems.vatNumber = 'vatTooShort';
    else if (checksVatNumbers(country) && !isVatNumberFormat(country, vat)) problems.vatNumber = 'vatInvalid';
    else if (blank(values.company)) problems.company = 'vatNeedsCompany';
  }
  return problems;
}
