import { format as formatDateFns, parseISO, type Locale as DateLocale } from 'date-fns';
import { de } from 'date-fns/locale/de';
import { enUS } from 'date-fns/locale/en-US';

/**
 * Dates and numbers as the portal shows them, in the reader's language (spec section 9), in one module
 * on date-fns and Intl.NumberFormat. Every page formats through here, so "a date" reads the same on the
 * subscription, the purchase history and the admin grid.
 */

const DATE_LOCALES: Record<string, DateLocale> = { en: enUS, de };

/** The patterns per language: the orders a reader of each expects (en "Nov 3, 2026", de "03.11.2026"). */
const PATTERNS = {
  en: { date: 'MMM d, yyyy', longDate: 'MMMM d, yyyy', dateTime: 'MMM d, yyyy, h:mm a', period: 'MMM d, yyyy' },
  de: { date: 'dd.MM.yyyy', longDate: 'd. MMMM yyyy', dateTime: 'dd.MM.yyyy, HH:mm', period: 'd. MMM yyyy' },
} as const;
type Style = keyof (typeof PATTERNS)['en'];

function patternsOf(language: string) {
  return language.startsWith('de') ? PATTERNS.de : PATTERNS.en;
}

function asDate(value: string | Date): Date {
  return typeof value === 'string' ? parseISO(value) : value;
}

function formatIn(value: string | Date, style: Style, language: string): string {
  const date = asDate(value);
  if (Number.isNaN(date.getTime())) return '';
  return formatDateFns(date, patternsOf(language)[style], { locale: DATE_LOCALES[language.slice(0, 2)] ?? enUS });
}

/** A day: "Nov 3, 2026" / "03.11.2026". */
/** A person's first and last name, as far as they gave them ('' for neither). */
export function formatName(person: { firstName: string | null; lastName: string | null }): string {
  return [person.firstName, person.lastName].filter(Boolean).join(' ');
}

export const formatDate = (value: string | Date, language: string) => formatIn(value, 'date', language);
/** A day written out, for sentences: "November 3, 2026" / "3. November 2026". */
export const formatLongDate = (value: string | Date, language: string) => formatIn(value, 'longDate', language);
/** A moment: "Nov 3, 2026, 2:05 PM" / "03.11.2026, 14:05". */
export const formatDateTime = (value: string | Date, language: string) => formatIn(value, 'dateTime', language);

/** A calendar day (yyyy-MM-dd, as the analytics periods are) without a time zone shift. */
export function formatPeriodDay(day: string, language: string): string {
  return formatIn(parseISO(day.slice(0, 10)), 'period', language);
}

/** A month period as yyyy-MM. */
export function formatMonth(day: string): string {
  return formatDateFns(parseISO(day.slice(0, 10)), 'yyyy-MM');
}

/**
 * Prices (spec section 9): two decimals, excluding tax, in the price's currency (USD or HUF), for the
 * reader's locale; an unknown price shows as empty, never as 0. Amounts arrive in minor units.
 */
export function formatPrice(amount: number | null | undefined, currencyCode: string, language: string): string {
  if (amount === null || amount === undefined || !Number.isFinite(amount)) return '';
  return new Intl.NumberFormat(language, { style: 'currency', currency: currencyCode, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
    amount / 100,
  );
}

/** How a figure is shown: a count, a mean (two decimals: a few users over many periods), minutes or hours. */
export type Unit = 'count' | 'mean' | 'minutes' | 'hours';

const UNIT_FORMATS: Record<Unit, Intl.NumberFormatOptions> = {
  count: { maximumFractionDigits: 0 },
  mean: { maximumFractionDigits: 2 },
  minutes: { style: 'unit', unit: 'minute', maximumFractionDigits: 1 },
  hours: { style: 'unit', unit: 'hour', maximumFractionDigits: 1 },
};

/** A figure in its unit, for the reader's locale ("1,234", "42.5 min", "1.234,5 Std."). */
export function formatValue(value: number, unit: Unit, language: string): string {
  return new Intl.NumberFormat(language, UNIT_FORMATS[unit]).format(value);
}

export function formatPercent(percent: number, language: string): string {
  return new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 }).format(percent / 100);
}

/** A change in percent with its sign ("+12.5%", "−3,2 %"; 0 without one), for the reader's locale. */
export function formatChange(percent: number, language: string): string {
  return new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format(percent / 100);
}
