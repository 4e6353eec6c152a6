import type { I18nProvider } from '@refinedev/core';
import type { i18n as I18n } from 'i18next';

/** Refine's translation hooks over i18next; `defaultMessage` becomes i18next's `defaultValue`. */
export function createI18nProvider(i18n: I18n): I18nProvider {
  return {
    translate: (key, options, defaultMessage) =>
      String(
        i18n.t(key, {
          ...(typeof options === 'object' && options !== null ? options : {}),
          defaultValue: defaultMessage ?? key,
        }),
      ),
    changeLocale: (locale) => i18n.changeLanguage(locale),
    getLocale: () => i18n.resolvedLanguage ?? i18n.language ?? 'en',
  };
}
