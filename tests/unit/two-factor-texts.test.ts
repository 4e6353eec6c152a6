import { describe, expect, it } from 'vitest';
import deSecurity from '../../locales/de/security.json';
import deSignIn from '../../locales/de/two-factor-sign-in.json';
import enSecurity from '../../locales/en/security.json';
import enSignIn from '../../locales/en/two-factor-sign-in.json';

/** Every leaf of a translation tree as `dotted.key` -> value. */
function leaves(tree: unknown, prefix = ''): Map<string, unknown> {
  const result = new Map<string, unknown>();
  if (typeof tree !== 'object' || tree === null || Array.isArray(tree)) return result.set(prefix, tree);
  for (const [key, value] of Object.entries(tree)) {
    for (const [leaf, text] of leaves(value, prefix ? `${prefix}.${key}` : key)) result.set(leaf, text);
  }
  return result;
}

/** Issue 44's texts that come with their code (namespaces of their own): en and de alike, German with "du". */
describe.each([
  ['the sign-in’s second step (twoFactorSignIn)', enSignIn, deSignIn],
  ['the security page (security)', enSecurity, deSecurity],
])('%s', (_name, en, de) => {
  it('en and de have exactly the same keys', () => {
    expect([...leaves(de).keys()].sort()).toEqual([...leaves(en).keys()].sort());
  });

  it.each([
    ['en', en],
    ['de', de],
  ])('%s has only non-empty string texts, with the placeholders of en', (_language, texts) => {
    const english = leaves(en);
    for (const [key, text] of leaves(texts)) {
      expect(typeof text, key).toBe('string');
      expect(String(text).trim(), key).not.toBe('');
      const placeholders = (value: unknown) => [...String(value).matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();
      expect(placeholders(text), key).toEqual(placeholders(english.get(key)));
    }
  });

  it('the German texts say "du", never "Sie"', () => {
    for (const [key, text] of leaves(de)) expect(String(text), key).not.toMatch(/\b(Sie|Ihr|Ihre|Ihren|Ihnen)\b/);
  });
});
