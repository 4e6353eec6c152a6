import i18next from 'i18next';
import { startTransition, useEffect, useState } from 'react';
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

/**
 * Texts only the signed-in area shows (locales/<lng>/account.json), merged into the same namespace once
 * the signed-in frame asks for them, so sign-in and registration never download them.
 */
const accountBundles: Record<Locale, () => Promise<{ default: Record<string, unknown> }>> = {
  en: () => import('../locales/en/account.json'),
  de: () => import('../locales/de/account.json'),
};
let accountTextsWanted = false;
const accountTextsLoaded = new Set<Locale>();

export function isLanguageLoaded(language: Locale): boolean {
  return i18n.hasResourceBundle(language, 'translation') && (!accountTextsWanted || accountTextsLoaded.has(language));
}

/** Starts downloading the account texts of `language` without adding them (the page's own texts come first). */
export function preloadAccountTexts(language: Locale): void {
  accountBundles[language]().catch(() => undefined);
}

export function accountTextsReady(language: Locale): boolean {
  return accountTextsLoaded.has(language);
}

/** Loads the account texts of `language`; from then on a language switch brings them along. */
export async function loadAccountTexts(language: Locale): Promise<void> {
  if (!accountTextsLoaded.has(language)) {
    const texts = await accountBundles[language]();
    i18n.addResourceBundle(language, 'translation', texts.default, true, true);
    accountTextsLoaded.add(language);
  }
  // Only now: a screen that is already showing never waits for texts it has.
  accountTextsWanted = true;
}

export async function loadLanguage(language: Locale): Promise<void> {
  if (!i18n.hasResourceBundle(language, 'translation')) {
    const texts = await bundles[language]();
    i18n.addResourceBundle(language, 'translation', texts.default, true, true);
  }
  if (accountTextsWanted) await loadAccountTexts(language);
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

/** The signed-in frame's texts in `language`; false while they load. */
export function useAccountTexts(language: Locale): boolean {
  const ready = accountTextsReady(language);
  const [, setLoaded] = useState(0);
  useEffect(() => {
    // A transition: the frame that appears then renders in slices (Lighthouse's total blocking time).
    if (!ready) void loadAccountTexts(language).then(() => startTransition(() => setLoaded((n) => n + 1)));
  }, [language, ready]);
  return ready;
}
