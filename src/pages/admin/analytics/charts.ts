import { useTranslation } from 'react-i18next';
import type { AnalyticsPoint } from '../../../../contract/analytics.js';
import { EXPORT_FORMATS } from '../../../../contract/licensing-values.js';
import type { CsvCell } from '../../../components/csv.js';
import { csvNumber, type Unit } from './format.js';

export interface SeriesSpec {
  id: string;
  /** A key under `pages.analytics.series` in locales/, or the text itself for format names (OBJ, STL...). */
  label: { key: string } | { text: string };
  unit: Unit;
  /** The figure in its unit (hours, minutes...), as the chart, the table and the CSV file show it. */
  value: (point: AnalyticsPoint) => number;
  /** A second scale on the right, for a series of another unit in the same chart. */
  rightAxis?: boolean;
}

/**
 * One chart of the dashboard (issue "Usage analytics and cohorts"). The chart, its table and its CSV
 * file all read these series, so the three always show the same numbers.
 */
export interface ChartSpec {
  id: string;
  /** A key under `pages.analytics.charts` in locales/. */
  titleKey: string;
  kind: 'bar' | 'line';
  /** Bars of the series on top of each other (exports by format). */
  stacked?: boolean;
  series: SeriesSpec[];
}

const count = (id: keyof AnalyticsPoint & string, value: (point: AnalyticsPoint) => number): SeriesSpec => ({ id, label: { key: id }, unit: 'count', value });

export const CHARTS: ChartSpec[] = [
  { id: 'new-users', titleKey: 'newUsers', kind: 'bar', series: [count('newUsers', (p) => p.newUsers)] },
  { id: 'active-users', titleKey: 'activeUsers', kind: 'line', series: [count('activeUsers', (p) => p.activeUsers)] },
  {
    id: 'sessions',
    titleKey: 'sessions',
    kind: 'line',
    series: [
      count('sessions', (p) => p.sessions),
      { id: 'averageSession', label: { key: 'averageSession' }, unit: 'minutes', value: (p) => p.averageSessionSeconds / 60, rightAxis: true },
    ],
  },
  { id: 'played-time', titleKey: 'playedTime', kind: 'bar', series: [{ id: 'playedHours', label: { key: 'playedHours' }, unit: 'hours', value: (p) => p.playedSeconds / 3600 }] },
  {
    id: 'exports',
    titleKey: 'exports',
    kind: 'bar',
    stacked: true,
    series: EXPORT_FORMATS.map((format) => ({ id: format, label: { text: format.toUpperCase() }, unit: 'count', value: (p) => p.exports[format] })),
  },
  {
    id: 'activations-sales',
    titleKey: 'activationsSales',
    kind: 'line',
    series: [count('activations', (p) => p.activations), count('sales', (p) => p.sales)],
  },
];

/** The chart's CSV file: the period (yyyy-MM-dd, as the API names it) and one column per series. */
export function chartCsvRows(spec: ChartSpec, points: readonly AnalyticsPoint[]): CsvCell[][] {
  return points.map((point) => [point.period, ...spec.series.map((series) => csvNumber(series.value(point)))]);
}

/** A series' name: its translated label, or the text itself (format names). */
export function useSeriesLabel(): (series: SeriesSpec) => string {
  const { t } = useTranslation();
  return (series) => ('key' in series.label ? t(`pages.analytics.series.${series.label.key}`) : series.label.text);
}
