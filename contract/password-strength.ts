import type { ZxcvbnFactory, ZxcvbnResult } from '@zxcvbn-ts/core';

/**
 * Issue 44 item 10: the new-password rules past spec section 5's (./password.ts), one module for the
 * server and the forms. zxcvbn (@zxcvbn-ts) and its dictionaries, about a megabyte, are loaded with
 * `import()` on first use only: the server's first registration or password change, the form's first
 * typed character. Nothing of it is in any page's first bundle.
 *
 * Too common: refused when zxcvbn, given the common-password list that @zxcvbn-ts/language-common ships
 * (its `passwords-common`, ranked, about 49,000 passwords) as its only dictionary, either
 * - reads the whole password as one entry of that list, in any capitalisation, l33t spelling or reversed
 *   ("Password1", "P@ssw0rd1", "1drowssap"), or
 * - needs no more guesses for it than the list has entries: an attacker trying the list with zxcvbn's
 *   variations (a digit added, repeats, sequences, dates) reaches it ("michelle1", "qwerty77", "aaaaaaa1").
 * Chosen over looking the password up in the ranked list as typed: the lookup refuses "password1" and
 * lets "Password1" and "P@ssw0rd1" through, which every cracker tries right after it. The list alone,
 * without the language dictionaries, keeps the rule about common passwords (a German word with a year
 * is weak, and the hint says so, but it is not on the list), and the same on the server and in the form.
 */

export type StrengthLanguage = 'en' | 'de';

export interface PasswordStrength {
  /** zxcvbn's score with the page language's dictionaries: 0 (too guessable) to 4 (very unguessable). */
  score: 0 | 1 | 2 | 3 | 4;
  /** From the common-password list: the server refuses it with PASSWORD_TOO_COMMON. */
  tooCommon: boolean;
  /** zxcvbn's warning, in the page's language, or null. */
  warning: string | null;
  /** zxcvbn's suggestions, in the page's language. */
  suggestions: string[];
}

const COMMON_LIST = 'passwords-common';
/** No password on the list is this long; longer ones are not looked at (zxcvbn's time grows with length). */
const LONGEST_COMMON = 64;
/** The hint reads this much of a password (zxcvbn's own default is 256). */
const HINT_MAX_LENGTH = 100;

/** Retried on the next call if the load failed (a dropped connection in the browser). */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}

const commonChecker = once(async () => {
  const [{ ZxcvbnFactory }, { dictionary }] = await Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')]);
  const list = dictionary[COMMON_LIST];
  return { zxcvbn: new ZxcvbnFactory({ dictionary: { [COMMON_LIST]: list } }), listLength: list.length };
});

function judgedCommon(result: ZxcvbnResult, listLength: number): boolean {
  const [only, ...rest] = result.sequence;
  const wholeEntry = only !== undefined && rest.length === 0 && only.pattern === 'dictionary' && only.i === 0 && only.j === result.password.length - 1;
  return wholeEntry || result.guesses <= listLength;
}

/** Whether `password` is too common to be allowed (the server's rule, and the forms' before they send). */
export async function isTooCommon(password: string): Promise<boolean> {
  if (password.length === 0 || password.length > LONGEST_COMMON) return false;
  const { zxcvbn, listLength } = await commonChecker();
  return judgedCommon(zxcvbn.check(password), listLength);
}

/** German's texts say "du" here, as every German text of the portal does (its pack says "Sie" for these two). */
const GERMAN_PWNED = {
  warning: 'Dieses Passwort wurde bei einem Datenleck im Internet veröffentlicht.',
  suggestion: 'Wenn du dieses Passwort auch anderswo benutzt, ändere es dort.',
};

const estimators: Record<StrengthLanguage, () => Promise<ZxcvbnFactory>> = {
  en: once(async () => {
    const [{ ZxcvbnFactory }, common, en] = await Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common'), import('@zxcvbn-ts/language-en')]);
    return new ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...en.dictionary },
      graphs: common.adjacencyGraphs,
      translations: en.translations,
      maxLength: HINT_MAX_LENGTH,
    });
  }),
  de: once(async () => {
    const [{ ZxcvbnFactory }, common, de] = await Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common'), import('@zxcvbn-ts/language-de')]);
    return new ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...de.dictionary },
      graphs: common.adjacencyGraphs,
      translations: {
        ...de.translations,
        warnings: { ...de.translations.warnings, pwned: GERMAN_PWNED.warning },
        suggestions: { ...de.translations.suggestions, pwned: GERMAN_PWNED.suggestion },
      },
      maxLength: HINT_MAX_LENGTH,
    });
  }),
};

/** The strength hint under a new-password field: zxcvbn's score and advice in `language`, and the list's verdict. */
export async function estimateStrength(password: string, language: StrengthLanguage): Promise<PasswordStrength> {
  const [zxcvbn, tooCommon] = await Promise.all([estimators[language](), isTooCommon(password)]);
  const result = zxcvbn.check(password);
  return { score: result.score, tooCommon, warning: result.feedback.warning, suggestions: result.feedback.suggestions };
}
