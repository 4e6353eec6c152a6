import type { CatalogueText, DiscountText } from '../../contract/billing.js';

/**
 * A catalogue entry's name and description in the reader's language (issue 20, item 9). The server sends
 * en and de (contract/billing.ts, catalogueTextSchema); en is the fallback (spec section 1).
 */
export function catalogueText(i18n: CatalogueText, language: string): CatalogueText['en'] {
  return language === 'de' ? i18n.de : i18n.en;
}

/** A discount's description in the reader's language (issue 48 item 4), as a catalogue entry's. */
export function discountText(i18n: DiscountText, language: string): string {
  return language === 'de' ? i18n.de : i18n.en;
}
