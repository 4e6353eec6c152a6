/**
 * Locale in the address (spec section 2): an optional `/en` or `/de` first segment. The chosen locale is
 * kept in sessionStorage and re-added to paths that lack it.
 */
export const LOCALES = ['en', 'de'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';
export const LOCALE_STORAGE_KEY = 'locale';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** `/de/account/profile` -> { locale: 'de', path: '/account/profile' }; `/login` -> { locale: null, path: '/login' }. */
export function splitLocale(pathname: string): { locale: Locale | null; path: string } {
  const match = /^\/([^/?#]+)(\/.*)?$/.exec(pathname);
  if (match && isLocale(match[1])) return { locale: match[1], path: match[2] ?? '/' };
  return { locale: null, path: pathname || '/' };
}

/** Puts a locale prefix on an app path (a path that already has one keeps it). */
export function withLocale(path: string, locale: Locale | null): string {
  const normalized = path.startsWith('/') ? path : `/${path}`;
  if (!locale || splitLocale(normalized).locale) return normalized;
  return normalized === '/' ? `/${locale}` : `/${locale}${normalized}`;
}

/**
 * Where the browser should go for the locale rules, or null to stay. A prefixed path is always right;
 * an unprefixed one gets the stored locale back.
 */
export function localeRedirect(pathname: string, search: string, stored: string | null): string | null {
  const { locale } = splitLocale(pathname);
  if (locale || !isLocale(stored)) return null;
  return `${withLocale(pathname, stored)}${search}`;
}

export function readStoredLocale(storage: Pick<Storage, 'getItem'>): Locale | null {
  const value = storage.getItem(LOCALE_STORAGE_KEY);
  return isLocale(value) ? value : null;
}
