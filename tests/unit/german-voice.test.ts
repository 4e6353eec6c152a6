// @vitest-environment node
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { discountText } from '../../server/modules/billing/catalogue.js';
import { catalogueGerman, POLITE_GERMAN as POLITE } from '../fixtures/german.js';

/**
 * Issue 48 item 4: one German voice (du) and one glossary (locales/GLOSSARY.md, which says the rules this file
 * holds the texts to), and the catalogue in both languages.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');

/** Every leaf of a translation tree as `dotted.key` -> text. */
function leaves(tree: unknown, prefix = ''): [string, string][] {
  if (typeof tree === 'string') return [[prefix, tree]];
  if (typeof tree !== 'object' || tree === null) return [];
  return Object.entries(tree).flatMap(([key, value]) => leaves(value, prefix ? `${prefix}.${key}` : key));
}

/** A text without its interpolations (`{{lastLogin}}` is a name, not a word of the text). */
const withoutPlaceholders = (text: string) => text.replace(/\{\{[^}]*\}\}/g, '');

/** Every text of a language's locale files and documents, as `file key` -> text. */
function localeTexts(language: 'en' | 'de'): [string, string][] {
  const folder = path.join(ROOT, 'locales', language);
  return readdirSync(folder).flatMap((file): [string, string][] => {
    const content = readFileSync(path.join(folder, file), 'utf8');
    if (file.endsWith('.json')) return leaves(JSON.parse(content)).map(([key, text]) => [`${language}/${file} ${key}`, withoutPlaceholders(text)]);
    return [[`${language}/${file}`, content]];
  });
}

/** The files of the product's code (not its tests): German may live in any of their strings. */
function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)));
}

/**
 * Every string a file's code holds (literals, template parts, JSX text), with its line; comments are not
 * strings. A file whose text has no polite form anywhere has none in its strings either, and is not parsed.
 */
function stringsOf(file: string): { line: number; text: string }[] {
  const code = readFileSync(path.join(ROOT, file), 'utf8');
  if (!POLITE.test(code)) return [];
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: { line: number; text: string }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node) || ts.isJsxText(node)) {
      found.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: node.text });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The glossary's words that a language's texts never use ("never in English/German" columns), as patterns. */
function neverWords(language: 'en' | 'de'): { word: string; pattern: RegExp }[] {
  const column = language === 'en' ? 3 : 4;
  const rows = readFileSync(path.join(ROOT, 'locales', 'GLOSSARY.md'), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| thing') && !line.startsWith('|---'));
  return rows.flatMap((row) =>
    (row.split('|').slice(1, -1)[column] ?? '')
      .split(',')
      .map((word) => word.trim())
      .filter((word) => word !== '')
      .map((word) => {
        // `Testphase*` is the word and every word it begins (Testphasen); without a star, the word alone.
        const stem = word.replace(/\*$/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        return { word, pattern: new RegExp(`(?<!\\p{L})${stem}${word.endsWith('*') ? '' : '(?!\\p{L})'}`, 'iu') };
      }),
  );
}

describe('one German voice: du, never Sie (issue 48 item 4)', () => {
  it('no German text of the locale files, mails or legal documents says Sie, Ihr or Ihnen', () => {
    const texts = localeTexts('de');
    expect(texts.length).toBeGreaterThan(1000);
    const polite = texts.filter(([, text]) => POLITE.test(text)).map(([where, text]) => `${where}: ${POLITE.exec(text)?.[0]} in "${text.slice(0, 120)}"`);
    expect(polite).toEqual([]);
  });

  it('no string in the code says them either (the stand-in checkout, the catalogue, anything rendered)', () => {
    const files = ['server', 'src', 'providers', 'contract', 'tools', 'scripts'].flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(300);
    const polite = files.flatMap((file) => stringsOf(file).filter(({ text }) => POLITE.test(text)).map(({ line, text }) => `${file}:${line}: "${text.slice(0, 120)}"`));
    expect(polite).toEqual([]);
  });

  it('the rule tells the polite forms from lowercase "sie" and "ihr", and from words that only begin like them', () => {
    for (const polite of ['Wählen Sie einen Tarif.', 'Ihr Abonnement endete.', 'Was Sie nutzen können', 'Wir senden Ihnen einen Code.', 'Sie ist überall abgemeldet.']) {
      expect(POLITE.test(polite), polite).toBe(true);
    }
    for (const fine of ['Wähle einen Tarif oder eine Dauerlizenz, um sie zu nutzen.', 'ab ihrer nächsten Anfrage', 'Siegel', 'Ihringen', 'Sieben Tage']) {
      expect(POLITE.test(fine), fine).toBe(false);
    }
  });
});

describe('the catalogue in both languages (issue 48 item 4)', () => {
  it("every product, price and discount of the stand-in's catalogue has its German text", () => {
    const missing = catalogueGerman().flatMap(({ entry, english, german, wanted }) =>
      wanted.filter((field) => typeof german?.[field] !== 'string' || String(german[field]).trim() === '').map((field) => `${entry} (${english.description ?? english.name}): no German ${field}`),
    );
    expect(missing).toEqual([]);
  });

  it('the German of the catalogue says du too', () => {
    const polite = catalogueGerman().flatMap(({ entry, german }) =>
      Object.values(german ?? {})
        .filter((text): text is string => typeof text === 'string' && POLITE.test(text))
        .map((text) => `${entry}: "${text}"`),
    );
    expect(polite).toEqual([]);
  });

  it("a discount's German is its custom_data.i18n.de.description, its English where the catalogue has none", () => {
    expect(discountText({ description: 'Welcome: 20% off', customData: { i18n: { de: { description: 'Willkommen: 20 % Rabatt' } } } })).toEqual({
      en: 'Welcome: 20% off',
      de: 'Willkommen: 20 % Rabatt',
    });
    expect(discountText({ description: 'Summer 2023', customData: null })).toEqual({ en: 'Summer 2023', de: 'Summer 2023' });
    expect(discountText({ description: 'Summer 2023', customData: { i18n: { de: { description: ' ' } } } })).toEqual({ en: 'Summer 2023', de: 'Summer 2023' });
  });
});

describe('one glossary (locales/GLOSSARY.md)', () => {
  for (const language of ['en', 'de'] as const) {
    it(`no ${language} text uses a word the glossary names for something else`, () => {
      const words = neverWords(language);
      expect(words.length).toBeGreaterThan(language === 'en' ? 5 : 10);
      const texts = [...localeTexts(language), ...(language === 'de' ? catalogueGerman().flatMap(({ entry, german }) => Object.values(german ?? {}).map((text): [string, string] => [entry, String(text)])) : [])];
      const used = texts.flatMap(([where, text]) => words.filter(({ pattern }) => pattern.test(text)).map(({ word }) => `${where}: "${word}" in "${text.slice(0, 120)}"`));
      expect(used).toEqual([]);
    });
  }

  it('the patterns take a starred word as a stem and a plain one as a whole word', () => {
    const pattern = (language: 'en' | 'de', word: string) => neverWords(language).find((entry) => entry.word === word)?.pattern;
    expect(pattern('de', 'Testphase*')?.test('Kostenlose Testphasen bis Mai')).toBe(true);
    expect(pattern('de', 'Abo')?.test('Dein Abonnement')).toBe(false);
    expect(pattern('de', 'Abo')?.test('Dein Abo endet')).toBe(true);
    expect(pattern('en', 'license')?.test('each licensed device')).toBe(false);
    expect(pattern('en', 'license')?.test('your license')).toBe(true);
  });
});
