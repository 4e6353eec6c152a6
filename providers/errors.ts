import type { TFunction } from 'i18next';

/**
 * What a failure says, one way everywhere. A refusal of the API carries a messageKey (`AppError` on the
 * server, contract/errors.ts); the HTTP client rejects with it (./http.ts, ApiError), the data provider adds
 * its text for Refine's notifications (./dataProvider.ts, DataError), and every key has an en and a de text
 * under `errors.<KEY>`. Anything else (a network failure, a thrown Error, a key this build has no text for)
 * is DEFAULT: "Something went wrong".
 */

/** The messageKey a failure carries (the API's refusal through any of the clients), DEFAULT for anything else. */
export function messageKeyOf(failure: unknown): string {
  return typeof failure === 'object' && failure !== null && 'messageKey' in failure && typeof failure.messageKey === 'string' && failure.messageKey !== ''
    ? failure.messageKey
    : 'DEFAULT';
}

/**
 * A failure's text in the reader's language: the text of its messageKey (`errors.<KEY>`), DEFAULT's for a key
 * without one. Takes the failure itself or the messageKey kept from it (a page's state, a navigation's).
 */
export function errorText(t: TFunction, failure: unknown): string {
  const key = typeof failure === 'string' ? failure || 'DEFAULT' : messageKeyOf(failure);
  return t(`errors.${key}`, { defaultValue: t('errors.DEFAULT') });
}
