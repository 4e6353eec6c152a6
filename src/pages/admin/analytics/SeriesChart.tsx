import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { useTranslation } from 'react-i18next';
import type { AnalyticsPoint, Granularity } from '../../../../contract/analytics.js';
import { useLocale } from '../../../components/LocaleScope.js';
import { useSeriesLabel, type ChartSpec, type SeriesSpec } from './charts.js';
import { CHART_HEIGHT } from './FigureCard.js';
import { formatValue, periodLabel } from './format.js';
import { IncompletePeriodShade, useIncompleteLabel } from './IncompletePeriod.js';

/** Eight distinct colours (one per export format), each at least 3:1 against the white chart (WCAG 1.4.11). */
const PALETTE = ['#1565c0', '#e65100', '#2e7d32', '#c62828', '#6a1b9a', '#00838f', '#ad1457', '#5d4037'];

interface SeriesChartProps {
  spec: ChartSpec;
  points: readonly AnalyticsPoint[];
  granularity: Granularity;
  title: string;
  /** The first period not over yet (shaded, and named so in the tooltip), or null. */
  incompleteFrom: string | null;
}

/** One chart of the dashboard drawn with MUI X Charts: bars or lines over the periods, the incomplete ones shaded. */
export function SeriesChart({ spec, points, granularity, title, incompleteFrom }: SeriesChartProps) {
  const { t } = useTranslation();
  const { language } = useLocale();
  const label = useSeriesLabel();
  const incompleteLabel = useIncompleteLabel();
  const periods = points.map((point) => point.period);
  const axis = (id: 'left' | 'right') => {
    const series = spec.series.filter((candidate) => (candidate.rightAxis ? 'right' : 'left') === id);
    const counts = series.every((candidate) => candidate.unit === 'count');
    const highest = Math.max(0, ...series.flatMap((candidate) => points.map(candidate.value)));
    return {
      id,
      position: id,
      // From zero, in whole steps for counts, and a scale of 0 to 1 when everything is 0 (no scale at all otherwise).
      min: 0,
      ...(highest === 0 ? { max: 1 } : {}),
      ...(counts ? { tickMinStep: 1 } : {}),
      valueFormatter: (value: number) => formatValue(value, counts ? 'count' : 'mean', language),
    };
  };
  const common = {
    height: CHART_HEIGHT,
    title,
    colors: PALETTE,
    localeText: { loading: t('common.loading'), noData: t('pages.analytics.noData') },
    yAxis: spec.series.some((series) => series.rightAxis) ? [axis('left'), axis('right')] : [axis('left')],
  };
  const seriesOf = (series: SeriesSpec) => ({
    id: series.id,
    label: label(series),
    data: points.map(series.value),
    yAxisId: series.rightAxis ? 'right' : 'left',
    valueFormatter: (value: number | null) => (value === null ? '' : formatValue(value, series.unit, language)),
  });
  const isIncomplete = (period: string) => incompleteFrom !== null && period >= incompleteFrom;
  const xAxis = {
    data: periods,
    // The tooltip names an incomplete period so; the axis ticks stay short.
    valueFormatter: (period: string, context: { location: string }) =>
      context.location === 'tooltip' && isIncomplete(period)
        ? t('pages.analytics.incomplete.tooltip', { period: periodLabel(period, granularity, language) })
        : periodLabel(period, granularity, language),
  };
  const shade = incompleteFrom !== null && periods.includes(incompleteFrom) && <IncompletePeriodShade period={incompleteFrom} label={incompleteLabel(incompleteFrom, granularity)} />;

  return spec.kind === 'bar' ? (
    <BarChart
      {...common}
      xAxis={[{ ...xAxis, scaleType: 'band' }]}
      series={spec.series.map((series) => ({ ...seriesOf(series), ...(spec.stacked ? { stack: spec.id } : {}) }))}
    >
      {shade}
    </BarChart>
  ) : (
    <LineChart {...common} xAxis={[{ ...xAxis, scaleType: 'point' }]} series={spec.series.map((series) => ({ ...seriesOf(series), showMark: false }))}>
      {shade}
    </LineChart>
  );
}
