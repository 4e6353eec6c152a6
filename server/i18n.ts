import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const LANGUAGES = ['en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];

type ErrorTexts = Record<string, string>;

const localesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../locales');

function loadErrorTexts(language: Language): ErrorTexts {
  const file = path.join(localesDir, language, 'translation.json');
  const translation = JSON.parse(readFileSync(file, 'utf8')) as { errors?: ErrorTexts };
  return translation.errors ?? {};
}

const texts: Record<Language, ErrorTexts> = { en: loadErrorTexts('en'), de: loadErrorTexts('de') };

/** Picks en or de from an Accept-Language header by quality; en is the fallback (spec section 1). */
export function languageFrom(acceptLanguage: string | undefined): Language {
  if (!acceptLanguage) return 'en';
  const ranked = acceptLanguage
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.toLowerCase().split('-')[0] ?? '', q: q ? Number(q.slice(2)) : 1 };
    })
    .filter((entry) => (LANGUAGES as readonly string[]).includes(entry.tag) && entry.q > 0)
    .sort((a, b) => b.q - a.q);
  return (ranked[0]?.tag as Language | undefined) ?? 'en';
}

export function errorMessage(messageKey: string, language: Language): string {
  return texts[language][messageKey] ?? texts.en[messageKey] ?? texts.en.DEFAULT ?? messageKey;
}
