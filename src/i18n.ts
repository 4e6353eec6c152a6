import i18next from 'i18next';
import { useEffect, useState } from 'react';
import { initReactI18next } from 'react-i18next';
import type { Locale } from './routing/locale.js';

/**
 * i18next for the SPA, en as the fallback (spec section 1). Each language's texts are a chunk of their
 * own, loaded before the first render and on a language switch, so a page downloads one language only.
 * (tests/unit/locales.test.ts keeps en and de key for key, so no fallback bundle is needed at run time.)
 */
export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: {},
  partialBundledLanguages: true,
  fallbackLng: 'en',
  supportedLngs: ['en', 'de'],
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

i18n.on('languageChanged', (language) => {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
});

const bundles: Record<Locale, () => Promise<{ default: Record<string, unknown> }>> = {
  en: () => import('../locales/en/translation.json'),
  de: () => import('../locales/de/translation.json'),
};

export function isLanguageLoaded(language: Locale): boolean {
  return i18n.hasResourceBundle(language, 'translation');
}

export async function loadLanguage(language: Locale): Promise<void> {
  if (!isLanguageLoaded(language)) {
    const texts = await bundles[language]();
    i18n.addResourceBundle(language, 'translation', texts.default, true, true);
  }
  if (i18n.language !== language) await i18n.changeLanguage(language);
}

/** Switches the UI to `language`; false while its texts are still loading. */
export function useLanguage(language: Locale): boolean {
  const ready = isLanguageLoaded(language);
  const [, setLoaded] = useState(0);
  if (ready && i18n.language !== language) void i18n.changeLanguage(language);
  useEffect(() => {
    if (!ready) void loadLanguage(language).then(() => setLoaded((n) => n + 1));
  }, [language, ready]);
  return ready;
}
