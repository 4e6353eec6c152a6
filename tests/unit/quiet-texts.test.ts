import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Messages that do not shout (issue 48 item 11): no error or validation text in any locale file ends with
 * "!" ("First name is required!"). A success may be glad ("Thank you!"); a refusal or a field's problem is
 * said calmly. Every JSON file under locales/, en and de.
 */
const LOCALES = path.resolve(import.meta.dirname, '../../locales');

function leaves(tree: unknown, prefix: string, into: [string, string][]): [string, string][] {
  if (typeof tree === 'string') into.push([prefix, tree]);
  else if (typeof tree === 'object' && tree !== null) for (const [key, value] of Object.entries(tree)) leaves(value, prefix ? `${prefix}.${key}` : key, into);
  return into;
}

/** A text that tells of a problem: under an `errors` or `validation` tree, or a key naming a requirement or a refusal. */
const PROBLEM_KEY = /(^|\.)(errors|validation)\.|Required$|Invalid|Error$|invalid$|required$/;

describe('texts that do not shout', () => {
  for (const language of ['en', 'de']) {
    it(`no ${language} error or validation text ends with "!"`, () => {
      const shouting: string[] = [];
      for (const file of readdirSync(path.join(LOCALES, language)).filter((name) => name.endsWith('.json'))) {
        const texts = leaves(JSON.parse(readFileSync(path.join(LOCALES, language, file), 'utf8')), '', []);
        for (const [key, text] of texts) if (PROBLEM_KEY.test(key) && /!\s*$/.test(text)) shouting.push(`${file} ${key}: ${text}`);
      }
      expect(shouting).toEqual([]);
    });
  }
});
