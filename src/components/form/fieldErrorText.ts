import type { TFunction } from 'i18next';
import type { FieldErrors, FieldValues } from 'react-hook-form';

/**
 * The text under a field: react-hook-form keeps each field's error as a translation key (the contract's zod
 * messages, contract/forms.ts, or `errors.<messageKey>` from the server), shown here in the page's language.
 */
export function fieldErrorText<Values extends FieldValues>(t: TFunction, errors: FieldErrors<Values>, field: keyof Values & string): string | undefined {
  const key = errors[field]?.message;
  return typeof key === 'string' && key !== '' ? t(key) : undefined;
}
