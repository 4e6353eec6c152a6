import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 46 item 3: no raw translation text, ever. Every literal key the web app hands to i18next's `t`
 * (`t('pages.home.plan')`, either branch of `t(cond ? 'a' : 'b')`, a template literal without a `${}`)
 * must name a string in both languages. A missing key shows as the key itself; a key that names an object
 * (`pages.prices.renews`, whose texts are `renews.month` and `renews.year`) shows as i18next's
 * "key '…' returned an object instead of string". Keys built at run time (`errors.${messageKey}`) are
 * held by the tests of their own lists (tests/unit/locales.test.ts).
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as Record<string, unknown>;

/** The default namespace as the app merges it: the public texts, the signed-in area's and the admin screens'. */
function translation(language: 'en' | 'de'): Record<string, unknown> {
  const texts = read(`locales/${language}/translation.json`);
  const account = read(`locales/${language}/account.json`);
  const admin = read(`locales/${language}/admin.json`);
  return deepMerge(deepMerge(texts, account), admin);
}

function deepMerge(into: Record<string, unknown>, from: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...into };
  for (const [key, value] of Object.entries(from)) {
    const existing = merged[key];
    merged[key] =
      typeof existing === 'object' && existing !== null && typeof value === 'object' && value !== null
        ? deepMerge(existing as Record<string, unknown>, value as Record<string, unknown>)
        : value;
  }
  return merged;
}

/** The namespaces of their own (src/pages/**\/texts.ts), by the prefix the keys name them with. */
const NAMESPACES: Record<string, string> = { adminUser: 'admin-user.json', security: 'security.json', twoFactorSignIn: 'two-factor-sign-in.json' };

function textsOf(language: 'en' | 'de'): Record<string, Record<string, unknown>> {
  return {
    translation: translation(language),
    ...Object.fromEntries(Object.entries(NAMESPACES).map(([namespace, file]) => [namespace, read(`locales/${language}/${file}`)])),
  };
}

function lookup(tree: Record<string, unknown>, key: string): unknown {
  let node: unknown = tree;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** What i18next would show for `key`: a string, `missing`, or `object` (its texts are one level down). */
function resolve(texts: Record<string, Record<string, unknown>>, key: string): 'string' | 'missing' | 'object' {
  const colon = key.indexOf(':');
  const namespace = colon > 0 && key.slice(0, colon) in NAMESPACES ? key.slice(0, colon) : 'translation';
  const bare = namespace === 'translation' ? key : key.slice(colon + 1);
  const tree = texts[namespace] as Record<string, unknown>;
  const found = lookup(tree, bare);
  if (typeof found === 'string') return 'string';
  // A plural is asked for by its bare key with a count: its forms are `key_one`, `key_other`.
  if (found === undefined && ['_one', '_other'].some((suffix) => typeof lookup(tree, `${bare}${suffix}`) === 'string')) return 'string';
  return found === undefined ? 'missing' : 'object';
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** A literal key: quoted, or a template literal without `${}`. */
const LITERAL = String.raw`(?:'([^'\\\n]+)'|"([^"\\\n]+)"|\x60([^\x60$\\\n]+)\x60)`;
/** `t(` (also `i18n.t(`), then one literal key, or a condition and two literal keys. */
const CALLS = [new RegExp(String.raw`\bt\(\s*${LITERAL}`, 'g'), new RegExp(String.raw`\bt\(\s*[\w.!?() =&|]+\?\s*${LITERAL}\s*:\s*${LITERAL}`, 'g')];

/** Every literal key in src/, with where it is used. */
function literalKeys(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of sourceFiles(path.join(ROOT, 'src'))) {
    const source = readFileSync(file, 'utf8');
    for (const pattern of CALLS) {
      for (const match of source.matchAll(pattern)) {
        const line = source.slice(0, match.index).split('\n').length;
        for (const key of match.slice(1).filter((group): group is string => group !== undefined)) {
          const where = `${path.relative(ROOT, file)}:${line}`;
          found.set(key, [...(found.get(key) ?? []), where]);
        }
      }
    }
  }
  return found;
}

describe('every literal t() key of the web app names a text (issue 46 item 3)', () => {
  const keys = literalKeys();

  it('finds the keys (the scan itself works)', () => {
    expect(keys.size).toBeGreaterThan(500);
    expect(keys.has('pages.home.plan')).toBe(true);
    expect(keys.has('adminUser:subtitle')).toBe(true);
  });

  it.each(['en', 'de'] as const)('in %s, each is a string: none missing, none naming an object', (language) => {
    const texts = textsOf(language);
    const wrong = [...keys]
      .map(([key, where]) => ({ key, shows: resolve(texts, key), where }))
      .filter((entry) => entry.shows !== 'string')
      .map((entry) => `${entry.key} (${entry.shows}) at ${entry.where.join(', ')}`);
    expect(wrong, wrong.join('\n')).toEqual([]);
  });

  it('tells a missing key and an object from a text', () => {
    const texts = textsOf('en');
    expect(resolve(texts, 'pages.home.plan')).toBe('string');
    expect(resolve(texts, 'pages.prices.switchTo')).toBe('object');
    expect(resolve(texts, 'pages.home.noSuchText')).toBe('missing');
    expect(resolve(texts, 'pages.subscription.days')).toBe('string');
  });
});
