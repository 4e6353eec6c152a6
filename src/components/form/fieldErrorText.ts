import type { TFunction } from 'i18next';
import type { ErrorOption, FieldErrors, FieldValues } from 'react-hook-form';
import { errorText } from '../../../providers/errors.js';

/** The prefix of a server refusal's key among a field's errors (react-hook-form's `setError`). */
const SERVER_KEY = 'errors.';

/** A server refusal as a field's error (`setError(field, serverError(key))`): shown by fieldErrorText. */
export function serverError(messageKey: string): ErrorOption {
  return { type: 'server', message: `${SERVER_KEY}${messageKey}` };
}

/**
 * The text under a field: react-hook-form keeps each field's error as a translation key (the contract's zod
 * messages, contract/forms.ts, or `errors.<messageKey>` from the server), shown here in the page's language; a
 * server key is the server's text (providers/errors.ts: DEFAULT's for one without a text). `values` fills a
 * message's placeholders (a code's length).
 */
export function fieldErrorText<Values extends FieldValues>(
  t: TFunction,
  errors: FieldErrors<Values>,
  field: keyof Values & string,
  values?: Record<string, string | number>,
): string | undefined {
  const key = errors[field]?.message;
  if (typeof key !== 'string' || key === '') return undefined;
  return key.startsWith(SERVER_KEY) ? errorText(t, key.slice(SERVER_KEY.length)) : t(key, values ?? {});
}
