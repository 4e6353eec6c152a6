import type { Locale } from '../../routing/locale.js';
import de from '../../../locales/de/admin.json';
import en from '../../../locales/en/admin.json';
import { i18n } from '../../i18n.js';

/**
 * The admin screens' own texts (locales/<lng>/admin.json: the users grid, analytics, cohorts, jobs and
 * Lite keys), under their usual keys, loaded with an admin screen's code. The account pages, held to a
 * tighter weight budget than the admin pages, never download them (they were a kilobyte of every
 * account page's texts). They are merged into a language only once its own texts are there (now, or
 * when a language switch loads them): `hasResourceBundle` is i18n.ts's test for a loaded language and
 * must not pass on these texts alone.
 */
const TEXTS: Record<Locale, Record<string, unknown>> = { en, de };
const merged = new Set<string>();

function merge(language: string): void {
  if (merged.has(language) || !(language in TEXTS) || !i18n.hasResourceBundle(language, 'translation')) return;
  merged.add(language);
  i18n.addResourceBundle(language, 'translation', TEXTS[language as Locale], true, true);
}

for (const language of Object.keys(TEXTS)) merge(language);
i18n.store.on('added', (language: string, namespace: string) => {
  if (namespace === 'translation') merge(language);
});
