/** EU member states (VAT numbers there have a country prefix and are reverse-charged for businesses). */
export const EU_COUNTRIES: ReadonlySet<string> = new Set([
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK',
]);

/** An EU VAT number's shape: the country prefix (EL for Greece) and 8 to 12 letters or digits. */
export function isVatNumberFormat(countryCode: string, vatNumber: string): boolean {
  const prefix = countryCode === 'GR' ? 'EL' : countryCode;
  return new RegExp(`^${prefix}[0-9A-Z]{8,12}$`).test(vatNumber.replace(/[\s.-]/g, '').toUpperCase());
}
