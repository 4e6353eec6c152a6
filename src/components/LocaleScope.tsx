import { createContext, useContext, useMemo } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useLanguage } from '../i18n.js';
import { FullPageSpinner } from './FullPageSpinner.js';
import {
  DEFAULT_LOCALE,
  LOCALE_STORAGE_KEY,
  localeRedirect,
  readStoredLocale,
  splitLocale,
  withLocale,
  type Locale,
} from '../routing/locale.js';

interface LocaleContextValue {
  /** The prefix in the address, if any. */
  prefix: Locale | null;
  language: Locale;
  /** An app path with the current prefix, for links and redirects. */
  localize(path: string): string;
  /** The same page in another language. */
  switchTo(locale: Locale): string;
}

const LocaleContext = createContext<LocaleContextValue>({
  prefix: null,
  language: DEFAULT_LOCALE,
  localize: (path) => path,
  switchTo: (locale) => `/${locale}`,
});

export function useLocale(): LocaleContextValue {
  return useContext(LocaleContext);
}

/**
 * The element of each locale branch of the route tree (no prefix, /en, /de). It keeps the chosen locale
 * in sessionStorage, re-adds it to paths without a prefix, and sets the UI language.
 */
export function LocaleScope({ prefix }: { prefix: Locale | null }) {
  const location = useLocation();
  const stored = readStoredLocale(sessionStorage);
  const redirect = prefix ? null : localeRedirect(location.pathname, location.search, stored);
  const language = prefix ?? stored ?? DEFAULT_LOCALE;
  // Idempotent, and must hold before any link is followed, so it runs during render, not in an effect.
  if (prefix && stored !== prefix) sessionStorage.setItem(LOCALE_STORAGE_KEY, prefix);
  const languageReady = useLanguage(language);

  const value = useMemo<LocaleContextValue>(
    () => ({
      prefix,
      language,
      localize: (path) => withLocale(path, prefix),
      switchTo: (locale) => `${withLocale(splitLocale(location.pathname).path, locale)}${location.search}`,
    }),
    [prefix, language, location.pathname, location.search],
  );

  if (redirect) return <Navigate to={redirect} replace />;
  if (!languageReady) return <FullPageSpinner />;
  return (
    <LocaleContext.Provider value={value}>
      <Outlet />
    </LocaleContext.Provider>
  );
}
