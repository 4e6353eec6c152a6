import { describe, expect, it } from 'vitest';
import { toCsv } from '../../src/components/csv.js';

/** Reads a CSV text back (RFC 4180), to check that what is written survives a round trip. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i] as string;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 1;
    } else cell += char;
  }
  return rows;
}

describe('CSV files of the analytics figures', () => {
  it('writes a header row and one CRLF-ended line per row', () => {
    expect(toCsv(['period', 'sessions'], [['2026-01-05', 12], ['2026-01-12', 0]])).toBe('period,sessions\r\n2026-01-05,12\r\n2026-01-12,0\r\n');
  });

  it('a header alone when there are no rows', () => {
    expect(toCsv(['a', 'b'], [])).toBe('a,b\r\n');
  });

  it.each([
    ['a comma', 'Sessions, all', '"Sessions, all"'],
    ['a quote', 'the "real" figure', '"the ""real"" figure"'],
    ['a line break', 'two\nlines', '"two\nlines"'],
    ['a carriage return', 'two\rlines', '"two\rlines"'],
    ['a leading space', ' padded', '" padded"'],
    ['a trailing space', 'padded ', '"padded "'],
  ])('quotes a cell with %s and doubles its quotes', (_label, cell, written) => {
    expect(toCsv([cell], [])).toBe(`${written}\r\n`);
  });

  it('leaves plain text, umlauts and the percent sign unquoted', () => {
    expect(toCsv(['Tag 7 %', 'Beginn des Zeitraums'], [])).toBe('Tag 7 %,Beginn des Zeitraums\r\n');
  });

  it('writes numbers with a dot, whatever the locale, and null as an empty cell', () => {
    expect(toCsv(['x'], [[1234.5], [0.25], [null], [Number.NaN]])).toBe('x\r\n1234.5\r\n0.25\r\n\r\n\r\n');
  });

  it('every cell survives a round trip through a CSV reader', () => {
    const header = ['Period start', 'Day 7 %', 'a "quoted", odd\r\nheader'];
    const rows = [
      ['2026-01-05', 42.5, 'x'],
      ['2026-01-12', null, ' , "'],
    ];
    expect(parseCsv(toCsv(header, rows))).toEqual([header, ['2026-01-05', '42.5', 'x'], ['2026-01-12', '', ' , "']]);
  });
});
