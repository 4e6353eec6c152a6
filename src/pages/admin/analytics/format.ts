import dayjs from 'dayjs';
import de from 'dayjs/locale/de';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import type { Granularity } from '../../../../contract/analytics.js';

dayjs.extend(localizedFormat);

/**
 * dayjs' German texts, passed by value: the build treats dayjs as free of side effects (vite.config.ts),
 * so a bare `import 'dayjs/locale/de'` that registers them would be dropped.
 */
const DAYJS_LOCALES: Record<string, typeof de> = { de };

/**
 * A period as the dashboard names it (spec section 9 date patterns): a day or a week by the day it
 * starts on, 'LLL d, yyyy' in English and the German order in German ('ll': Nov 3, 2026 / 3. Nov.
 * 2026); a month as yyyy-MM.
 */
export function periodLabel(period: string, granularity: Granularity, language: string): string {
  const day = dayjs(period);
  return granularity === 'month' ? day.format('YYYY-MM') : day.locale(DAYJS_LOCALES[language] ?? 'en').format('ll');
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

/** A figure for a CSV file: rounded to two decimals, written with a dot whatever the locale. */
export function csvNumber(value: number): number {
  return Math.round(value * 100) / 100;
}
