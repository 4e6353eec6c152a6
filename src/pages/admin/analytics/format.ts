import type { Granularity } from '../../../../contract/analytics.js';
import { formatMonth, formatPeriodDay } from '../../../format/index.js';

export { formatChange, formatPercent, formatValue, type Unit } from '../../../format/index.js';

/**
 * A period as the dashboard names it (spec section 9 date patterns): a day or a week by the day it
 * starts on ('Nov 3, 2026' / '3. Nov. 2026'); a month as yyyy-MM.
 */
export function periodLabel(period: string, granularity: Granularity, language: string): string {
  return granularity === 'month' ? formatMonth(period) : formatPeriodDay(period, language);
}

/** A figure for a CSV file: rounded to two decimals, written with a dot whatever the locale. */
export function csvNumber(value: number): number {
  return Math.round(value * 100) / 100;
}
