import { createRequire } from 'node:module';
import type * as Core from '@zxcvbn-ts/core';
import type * as Common from '@zxcvbn-ts/language-common';
import type * as English from '@zxcvbn-ts/language-en';
import type * as German from '@zxcvbn-ts/language-de';

/**
 * Issue 44 item 9: production refuses a `JWT_SECRET` that looks chosen rather than random, judged by
 * zxcvbn (@zxcvbn-ts/core with its common, English and German dictionaries and keyboard layouts):
 * - fewer than 128 bits of guesses by its estimate. zxcvbn counts about 3.3 bits for a character it cannot
 *   explain, so 39 or more random characters pass (`openssl rand -base64 48` has 64, about 210 bits) and
 *   words, names, dates, keyboard walks and sequences cost a secret most of its length;
 * - or made of dictionary words: words of three letters or more that its dictionaries know (split at
 *   separators, digits and capitals) make up half of the secret. A long passphrase ("correct-horse-battery-
 *   staple-...") reaches 128 bits by length and is still chosen; in random base64 such words stay below
 *   two fifths even at 32 characters.
 * Loaded only when judged (a production start with JWT_SECRET set): the dictionaries are a few megabytes
 * and the judgement takes about a second, once.
 */
export const MIN_SECRET_BITS = 128;
export const MAX_WORD_SHARE = 0.5;

export interface SecretJudgement {
  /** log2 of zxcvbn's estimate of the guesses needed. */
  bits: number;
  /** The share of the secret's characters that are dictionary words. */
  wordShare: number;
}

const require = createRequire(import.meta.url);
const WORD_RUN = /\p{Lu}?\p{Ll}+|\p{Lu}+(?!\p{Ll})/gu;
const MIN_WORD_LENGTH = 3;

export function judgeSecret(secret: string): SecretJudgement {
  const { ZxcvbnFactory } = require('@zxcvbn-ts/core') as typeof Core;
  const common = require('@zxcvbn-ts/language-common') as typeof Common;
  const en = require('@zxcvbn-ts/language-en') as typeof English;
  const de = require('@zxcvbn-ts/language-de') as typeof German;
  // German's dictionaries have no language suffix in their names; given one here, none shadows English's.
  const german = Object.fromEntries(Object.entries(de.dictionary).map(([name, words]) => [`${name}-de`, words]));
  const dictionary = { ...common.dictionary, ...en.dictionary, ...german };
  const zxcvbn = new ZxcvbnFactory({ dictionary, graphs: common.adjacencyGraphs });
  const bits = zxcvbn.check(secret).guessesLog10 * Math.log2(10);

  const words = new Set<string>();
  for (const list of Object.values(dictionary)) {
    for (const entry of list) {
      const word = String(entry).toLowerCase();
      if (word.length >= MIN_WORD_LENGTH) words.add(word);
    }
  }
  let wordCharacters = 0;
  for (const [run] of secret.matchAll(WORD_RUN)) {
    if (run.length >= MIN_WORD_LENGTH && words.has(run.toLowerCase())) wordCharacters += run.length;
  }
  return { bits, wordShare: secret.length === 0 ? 0 : wordCharacters / secret.length };
}
