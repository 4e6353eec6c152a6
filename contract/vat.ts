import * as jsvatExports from 'jsvat-next';

/**
 * jsvat-next's CommonJS build (what Node loads for the server and its tests) is minified, so Node cannot
 * find its named exports and hands the whole module over as `default`; bundlers (the SPA) read its ES
 * build and see the names directly. Either way the same library is used.
 */
const jsvat: typeof jsvatExports = 'checkVAT' in jsvatExports ? jsvatExports : (Reflect.get(jsvatExports, 'default') as typeof jsvatExports);

/** EU member states (VAT numbers there have a country prefix and are reverse-charged for businesses). */
export const EU_COUNTRIES: ReadonlySet<string> = new Set([
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK',
]);

/**
 * jsvat-next's rules (format and check digits) by ISO country code: the EU states, the UK (GB, and XI
 * for Northern Ireland), Switzerland, Norway, Andorra, Serbia, Russia, Brazil and Australia. Its EU
 * "country" (the OSS scheme's EU prefix) is no place anyone lives, so it never matches a billing country.
 */
const RULES = new Map(jsvat.countries.map((country) => [country.codes[0], country]));

/** True when the country's VAT numbers can be checked (format and check digits); elsewhere they cannot. */
export function checksVatNumbers(countryCode: string): boolean {
  return RULES.has(countryCode);
}

/**
 * A VAT number of `countryCode` in that country's written form, with correct check digits (jsvat-next):
 * the country prefix where the country uses one (EL for Greece; DE136695976, ATU13585627, CHE116281710),
 * Norway's number with MVA after it. False for a country whose numbers cannot be checked.
 */
export function isVatNumberFormat(countryCode: string, vatNumber: string): boolean {
  const rules = RULES.get(countryCode);
  return rules !== undefined && jsvat.checkVAT(vatNumber, [rules]).isValid;
}
