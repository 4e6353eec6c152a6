import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import i18next from 'i18next';

/**
 * Server-side texts from the same locales/ files as the SPA: error messages by messageKey and the mails.
 * en is the fallback (spec section 1).
 */
export const LANGUAGES = ['en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];

const localesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../locales');
const read = (language: Language, file: string) =>
  JSON.parse(readFileSync(path.join(localesDir, language, file), 'utf8')) as Record<string, unknown>;
/**
 * The SPA's texts (errors included; the signed-in area's errors live in account.json) plus the mails,
 * which only the server needs (locales/<lng>/mail.json).
 */
const load = (language: Language) => {
  const texts = read(language, 'translation.json');
  const account = read(language, 'account.json');
  return {
    ...texts,
    errors: { ...(texts.errors as Record<string, string>), ...(account.errors as Record<string, string>) },
    mail: read(language, 'mail.json'),
  };
};

const i18n = i18next.createInstance();
void i18n.init({
  resources: { en: { translation: load('en') }, de: { translation: load('de') } },
  fallbackLng: 'en',
  supportedLngs: [...LANGUAGES],
  initAsync: false,
  // Mail HTML is escaped where it is built (server/modules/mail/templates.ts), per value.
  interpolation: { escapeValue: false },
});

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Picks en or de from an Accept-Language header by quality; en is the fallback. */
export function languageFrom(acceptLanguage: string | undefined): Language {
  if (!acceptLanguage) return 'en';
  const ranked = acceptLanguage
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.toLowerCase().split('-')[0] ?? '', q: q ? Number(q.slice(2)) : 1 };
    })
    .filter((entry) => isLanguage(entry.tag) && entry.q > 0)
    .sort((a, b) => b.q - a.q);
  return (ranked[0]?.tag as Language | undefined) ?? 'en';
}

export function translate(language: Language, key: string, values: Record<string, string> = {}): string {
  return String(i18n.t(key, { lng: language, ...values }));
}

export function errorMessage(messageKey: string, language: Language): string {
  const key = `errors.${messageKey}`;
  return i18n.exists(key, { lng: language }) ? translate(language, key) : translate(language, 'errors.DEFAULT');
}
