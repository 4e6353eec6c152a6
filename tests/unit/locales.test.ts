import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MESSAGE_KEYS } from '../../contract/errors.js';
import deAccount from '../../locales/de/account.json';
import deAdmin from '../../locales/de/admin.json';
import deMail from '../../locales/de/mail.json';
import de from '../../locales/de/translation.json';
import enAccount from '../../locales/en/account.json';
import enAdmin from '../../locales/en/admin.json';
import enMail from '../../locales/en/mail.json';
import en from '../../locales/en/translation.json';
import { renderMarkdown } from '../../scripts/markdown-plugin.js';
import { ADMIN_MENU, USER_MENU } from '../../src/routing/menu.js';
import { ROUTES } from '../../src/routing/routes.js';

/** Every leaf of a translation tree as `dotted.key` -> value. */
function leaves(tree: unknown, prefix = ''): Map<string, unknown> {
  const result = new Map<string, unknown>();
  if (typeof tree !== 'object' || tree === null || Array.isArray(tree)) {
    result.set(prefix, tree);
    return result;
  }
  for (const [key, value] of Object.entries(tree)) {
    for (const [leaf, text] of leaves(value, prefix ? `${prefix}.${key}` : key)) result.set(leaf, text);
  }
  return result;
}

// The mails (server only) are checked with the rest, under `mail.`; the signed-in area's texts
// (account.json, loaded with the signed-in frame) and the admin screens' (admin.json, loaded with their
// code) are merged in where the app merges them.
const withAccount = (texts: typeof en, account: typeof enAccount, admin: typeof enAdmin) => ({
  ...texts,
  ...account,
  routes: { ...texts.routes, ...account.routes },
  header: { ...texts.header, ...account.header },
  pages: { ...texts.pages, ...account.pages, ...admin.pages },
  errors: { ...texts.errors, ...account.errors },
});
const LOCALES = {
  en: leaves({ ...withAccount(en, enAccount, enAdmin), mail: enMail }),
  de: leaves({ ...withAccount(de, deAccount, deAdmin), mail: deMail }),
};

describe('translations (spec section 1: en and de)', () => {
  it('the account texts add keys and never replace one of the public texts', () => {
    const publicKeys = new Set(leaves(en).keys());
    expect([...leaves(enAccount).keys()].filter((key) => publicKeys.has(key))).toEqual([]);
  });

  it('en and de have exactly the same set of nested keys', () => {
    expect([...LOCALES.de.keys()].sort()).toEqual([...LOCALES.en.keys()].sort());
  });

  it.each(Object.entries(LOCALES))('%s has only non-empty string texts', (_locale, texts) => {
    expect(texts.size).toBeGreaterThan(0);
    for (const [key, text] of texts) {
      expect(typeof text, key).toBe('string');
      expect(String(text).trim(), key).not.toBe('');
    }
  });

  it.each(Object.entries(LOCALES))('every messageKey has an errors.<KEY> text in %s', (_locale, texts) => {
    for (const key of MESSAGE_KEYS) expect(texts.has(`errors.${key}`), `errors.${key}`).toBe(true);
  });

  it.each(Object.entries(LOCALES))('every route titleKey exists in %s', (_locale, texts) => {
    for (const route of ROUTES) expect(texts.has(route.titleKey), `${route.path}: ${route.titleKey}`).toBe(true);
  });

  it.each(Object.entries(LOCALES))('every menu labelKey exists in %s', (_locale, texts) => {
    for (const entry of [...USER_MENU, ...ADMIN_MENU]) {
      expect(texts.has(entry.labelKey), `${entry.key}: ${entry.labelKey}`).toBe(true);
    }
  });

  it('the spec texts for session errors are used in en', () => {
    expect(LOCALES.en.get('errors.SESSION_EXPIRED')).toBe('Your session has expired.');
    expect(LOCALES.en.get('errors.UNAUTHORIZED')).toBe('Unauthorized.');
    expect(LOCALES.en.get('errors.WRONG_CREDENTIALS')).toBe('Email or password is incorrect.');
  });
});

describe('mail texts', () => {
  it.each(Object.entries(LOCALES))('every mail the server sends has a subject and a body in %s', (_locale, texts) => {
    for (const kind of ['verification', 'verificationLink', 'alreadyVerified', 'passwordReset']) {
      expect(texts.has(`mail.${kind}.subject`), kind).toBe(true);
      expect(texts.has(`mail.${kind}.body`), kind).toBe(true);
    }
  });
});

describe('legal documents (Markdown beside the translations)', () => {
  const documents = ['terms', 'privacy-policy'] as const;
  const read = (language: string, name: string) =>
    renderMarkdown(readFileSync(path.resolve(import.meta.dirname, `../../locales/${language}/${name}.md`), 'utf8'));
  const count = (html: string, pattern: RegExp) => html.match(pattern)?.length ?? 0;

  it.each(documents)('%s exists in en and de with the same sections', (name) => {
    const en = read('en', name);
    const de = read('de', name);
    expect(count(en, /<h2 /g)).toBeGreaterThan(3);
    expect(count(de, /<h2 /g)).toBe(count(en, /<h2 /g));
    expect(count(de, /<li>/g)).toBe(count(en, /<li>/g));
  });

  it('the terms carry the EULA under the #eula anchor the registration links to, in both languages', () => {
    for (const language of ['en', 'de']) expect(read(language, 'terms')).toMatch(/<h2 id="eula">[^<]*EULA[^<]*<\/h2>/);
  });

  it('refuses raw HTML in a document', () => {
    expect(() => renderMarkdown('Hello <script>alert(1)</script>')).toThrow(/HTML is not allowed/);
  });
});

describe("spec section 8, 'Login and account'", () => {
  /**
   * Each error of the catalogue and the messageKey that answers it. 'wrong password' and 'user not found'
   * share WRONG_CREDENTIALS on purpose: two answers would tell whether an address is registered.
   */
  const CATALOGUE: Record<string, string> = {
    'wrong email or password': 'WRONG_CREDENTIALS',
    'Your session has expired.': 'SESSION_EXPIRED',
    'Unauthorized.': 'UNAUTHORIZED',
    "user not found ('Email or password is incorrect.')": 'WRONG_CREDENTIALS',
    'account not verified': 'USER_NOT_VERIFIED',
    'email already registered': 'EMAIL_ALREADY_REGISTERED',
    'region does not exist': 'REGION_NOT_FOUND',
    'phone number invalid': 'PHONE_NUMBER_INVALID',
    'invalid password creation token': 'INVALID_PASSWORD_TOKEN',
    'invalid token': 'INVALID_TOKEN',
    'account already verified': 'ALREADY_VERIFIED',
    'invalid verification code': 'INVALID_VERIFICATION_CODE',
    'email verification failed': 'EMAIL_VERIFICATION_FAILED',
    'wrong password': 'WRONG_CREDENTIALS',
    'wrong old password': 'WRONG_OLD_PASSWORD',
  };

  it.each(Object.entries(CATALOGUE))('%s -> %s, with an en and a de text', (_error, key) => {
    expect(MESSAGE_KEYS).toContain(key);
    expect(LOCALES.en.get(`errors.${key}`)).toEqual(expect.any(String));
    expect(LOCALES.de.get(`errors.${key}`)).toEqual(expect.any(String));
    expect(LOCALES.de.get(`errors.${key}`)).not.toBe(LOCALES.en.get(`errors.${key}`));
  });

  it('the texts the spec quotes are used word for word', () => {
    expect(LOCALES.en.get('errors.SESSION_EXPIRED')).toBe('Your session has expired.');
    expect(LOCALES.en.get('errors.UNAUTHORIZED')).toBe('Unauthorized.');
    expect(LOCALES.en.get('errors.WRONG_CREDENTIALS')).toBe('Email or password is incorrect.');
  });
});
