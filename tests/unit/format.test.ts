import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatLongDate, formatPeriodDay, formatPrice } from '../../src/format/index.js';

/**
 * Issue 18: dates and numbers in one module on date-fns. The patterns read as each language's readers
 * expect, the same as the browser's own medium and long date styles the pages showed before.
 */
const moment = '2026-11-03T14:05:00Z';
const intl = (language: string, options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(language, { ...options, timeZone: 'UTC' }).format(new Date(moment));

describe('src/format (date-fns)', () => {
  it.each(['en', 'de'])('a day and a day written out read as the %s medium and long styles', (language) => {
    const day = new Date(Date.UTC(2026, 10, 3, 12));
    expect(formatDate(day, language)).toBe(new Intl.DateTimeFormat(language, { dateStyle: 'medium' }).format(day));
    expect(formatLongDate(day, language)).toBe(new Intl.DateTimeFormat(language, { dateStyle: 'long' }).format(day));
  });

  it('a moment has its time, in the reader order', () => {
    expect(formatDateTime(moment, 'en')).toMatch(/^Nov 3, 2026, \d{1,2}:05 (AM|PM)$/);
    expect(formatDateTime(moment, 'de')).toMatch(/^03\.11\.2026, \d{2}:05$/);
    expect(intl('en', { dateStyle: 'medium' })).toBe('Nov 3, 2026');
  });

  it('an analytics day is that calendar day in every time zone', () => {
    expect(formatPeriodDay('2026-11-03', 'en')).toBe('Nov 3, 2026');
    expect(formatPeriodDay('2026-11-03', 'de')).toBe('3. Nov. 2026');
  });

  it('a price has two decimals in its currency, and an unknown one is empty, never 0', () => {
    expect(formatPrice(1999, 'USD', 'en')).toBe('$19.99');
    expect(formatPrice(1999, 'USD', 'de')).toBe('19,99\u00a0$');
    expect(formatPrice(null, 'USD', 'en')).toBe('');
    expect(formatPrice(Number.NaN, 'HUF', 'de')).toBe('');
  });

  it('a date it cannot read is empty, never "Invalid Date"', () => {
    expect(formatDate('not a date', 'en')).toBe('');
  });
});
