// @vitest-environment node
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { dictionary } from '@zxcvbn-ts/language-common';
import { describe, expect, it } from 'vitest';
import { isStrongEnough } from '../../contract/password.js';
import { estimateStrength, isTooCommon } from '../../contract/password-strength.js';

/**
 * Issue 44 item 10: the common-password rule of contract/password-strength.ts, which the server applies to
 * registration, reset and change and the forms apply before they send, and the strength hint's estimate.
 */
describe('the common-password rule', () => {
  it('refuses every password of the common list that spec section 5 would let through', async () => {
    const eligible = dictionary['passwords-common'].filter((password) => isStrongEnough(password));
    expect(eligible.length).toBeGreaterThan(5_000);
    const allowed: string[] = [];
    for (const password of eligible) if (!(await isTooCommon(password))) allowed.push(password);
    expect(allowed).toEqual([]);
  }, 60_000);

  it('refuses them however they are capitalised, spelt in l33t or turned round, and what the list gets to with a digit more', async () => {
    for (const password of ['Password1', 'PASSWORD1', 'P@ssw0rd1', '1drowssap', 'Qwerty123', 'Passwort1', 'michelle1', 'qwerty77', 'aaaaaaa1', '12345678a']) {
      expect(await isTooCommon(password), password).toBe(true);
    }
  });

  it('lets through what is not on the list: random ones, passphrases, and weak ones the hint warns about instead', async () => {
    for (const password of ['correct horse 42', 'k7Hq2pXz', 'Zebra crossing 24', 'Winter2023!', 'Passwort123', 'sculpt4ever', 'x'.repeat(200)]) {
      expect(await isTooCommon(password), password).toBe(false);
    }
    expect(await isTooCommon('')).toBe(false);
  });

  it('loads zxcvbn only when asked: the module imports none of it before', () => {
    const source = readFileSync(path.resolve(import.meta.dirname, '../../contract/password-strength.ts'), 'utf8');
    const staticImports = source.split('\n').filter((line) => /^import\s(?!type\s).*@zxcvbn-ts/.test(line));
    expect(staticImports).toEqual([]);
    expect(source).toContain("import('@zxcvbn-ts/core')");
  });
});

describe('the strength hint', () => {
  it('scores and advises in the page language', async () => {
    const weakEn = await estimateStrength('password1', 'en');
    expect(weakEn).toMatchObject({ score: 0, tooCommon: true, warning: 'This is a commonly used password.' });
    const weakDe = await estimateStrength('password1', 'de');
    expect(weakDe).toMatchObject({ score: 0, tooCommon: true, warning: 'Dies ist ein oft verwendetes Passwort.' });
    expect(weakDe.suggestions).toContain('Weitere Wörter, die weniger häufig vorkommen, hinzufügen.');
    const strong = await estimateStrength('correct horse 42 battery', 'en');
    expect(strong).toMatchObject({ score: 4, tooCommon: false, warning: null });
  });

  it('reads German names and words with the German dictionaries, English ones with the English', async () => {
    const german = await estimateStrength('Fussballverein9', 'de');
    const english = await estimateStrength('Fussballverein9', 'en');
    expect(german.score).toBeLessThan(english.score);
  });
});
