import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import i18next, { type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import deAccount from '../../locales/de/account.json';
import de from '../../locales/de/translation.json';
import enAccount from '../../locales/en/account.json';
import en from '../../locales/en/translation.json';
import { createDataProvider } from '../../providers/dataProvider.js';
import { errorText, messageKeyOf } from '../../providers/errors.js';
import type { ApiError, HttpClient } from '../../providers/http.js';

/** The app's texts as the signed-in frame has them (translation.json with account.json merged in). */
const texts = {} as Record<'en' | 'de', TFunction>;
beforeAll(async () => {
  const instance = i18next.createInstance();
  await instance.init({ resources: {}, fallbackLng: 'en', interpolation: { escapeValue: false } });
  for (const [language, bundles] of [
    ['en', [en, enAccount]],
    ['de', [de, deAccount]],
  ] as const) {
    for (const bundle of bundles) instance.addResourceBundle(language, 'translation', bundle, true, true);
    texts[language] = instance.getFixedT(language);
  }
});

const refusal: ApiError = { messageKey: 'WRONG_PASSWORD', message: 'Wrong password', statusCode: 401 };

describe("an error's text, one way (issue 45)", () => {
  it('the messageKey of a refusal through the HTTP client, the data provider or a page, DEFAULT for anything else', () => {
    expect(messageKeyOf(refusal)).toBe('WRONG_PASSWORD');
    expect(messageKeyOf({ ...refusal, message: 'Falsches Passwort' })).toBe('WRONG_PASSWORD');
    expect(messageKeyOf({ messageKey: 'PAYMENT_SCRIPT_FAILED' })).toBe('PAYMENT_SCRIPT_FAILED');
    for (const other of [new Error('offline'), new TypeError('Failed to fetch'), null, undefined, 'WRONG_PASSWORD', { messageKey: 42 }, { messageKey: '' }]) {
      expect(messageKeyOf(other), String(other)).toBe('DEFAULT');
    }
  });

  it("is the text of the failure's messageKey, or of the key kept from it, in the reader's language", () => {
    expect(errorText(texts.en, refusal)).toBe(en.errors.WRONG_PASSWORD);
    expect(errorText(texts.en, 'WRONG_PASSWORD')).toBe(en.errors.WRONG_PASSWORD);
    expect(errorText(texts.de, refusal)).toBe(de.errors.WRONG_PASSWORD);
    // A signed-in refusal's text lives in account.json.
    expect(errorText(texts.de, 'SUBSCRIPTION_EXISTS')).toBe(deAccount.errors.SUBSCRIPTION_EXISTS);
  });

  it("is DEFAULT's text for a failure without a key, a key without a text, or no key", () => {
    for (const failure of [new Error('offline'), 'NO_SUCH_KEY_IN_ANY_LOCALE', { messageKey: 'NO_SUCH_KEY_IN_ANY_LOCALE', statusCode: 400 }, '', null]) {
      expect(errorText(texts.en, failure), String(failure)).toBe(en.errors.DEFAULT);
      expect(errorText(texts.de, failure), String(failure)).toBe(de.errors.DEFAULT);
    }
  });

  it("is the text the data provider gives Refine's notifications", async () => {
    const http: HttpClient = () => Promise.reject(refusal);
    const dataProvider = createDataProvider(http, { translate: (messageKey) => errorText(texts.de, messageKey) });
    const failure: unknown = await dataProvider.custom?.({ url: '/users/me/email', method: 'post', payload: {} }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ messageKey: 'WRONG_PASSWORD', statusCode: 401, message: de.errors.WRONG_PASSWORD });
    expect(errorText(texts.de, failure)).toBe(de.errors.WRONG_PASSWORD);
  });

  it('no other code makes an error text from a messageKey', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const files = ['src', 'providers'].flatMap((dir) =>
      (readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true }) as { name: string; parentPath: string }[])
        .filter((entry) => /\.tsx?$/.test(entry.name))
        .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name))),
    );
    // `errors.<KEY>` is built in providers/errors.ts, and for a field's server refusal in fieldErrorText.ts.
    const own = new Set(['providers/errors.ts', 'src/components/form/fieldErrorText.ts']);
    const others = files.filter((file) => !own.has(file) && /errors\.\$\{|errors\.DEFAULT|\b(errorKeyOf|messageText)\b/.test(readFileSync(path.join(root, file), 'utf8')));
    expect(others).toEqual([]);
  });
});
