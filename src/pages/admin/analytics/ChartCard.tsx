import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AnalyticsPoint, Granularity } from '../../../../contract/analytics.js';
import { chartCsvRows, useSeriesLabel, type ChartSpec } from './charts.js';
import { FigureCard } from './FigureCard.js';
import { IncompletePeriodLegend } from './IncompletePeriod.js';
import { SeriesChart } from './SeriesChart.js';
import { SeriesTable } from './SeriesTable.js';

interface ChartCardProps {
  spec: ChartSpec;
  points: readonly AnalyticsPoint[] | null;
  granularity: Granularity;
  /** The first period not over yet (issue 21 item 3), or null. */
  incompleteFrom: string | null;
  /** The CSV file's name without the chart's id and extension. */
  fileStem: string;
  stale: boolean;
}

/** One chart of the dashboard, switchable to a table of the same numbers, and downloadable as CSV. */
export function ChartCard({ spec, points, granularity, incompleteFrom, fileStem, stale }: ChartCardProps) {
  const { t } = useTranslation();
  const label = useSeriesLabel();
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const title = t(`pages.analytics.charts.${spec.titleKey}`);
  const csv = points
    ? () => ({ name: `${fileStem}-${spec.id}.csv`, header: [t('pages.analytics.csvPeriod'), ...spec.series.map(label)], rows: chartCsvRows(spec, points) })
    : null;

  return (
    <FigureCard
      title={title}
      testId={`chart-${spec.id}`}
      csv={csv}
      loading={points === null}
      stale={stale}
      actions={
        <ToggleButtonGroup size="small" exclusive value={view} onChange={(_event, next: 'chart' | 'table' | null) => next && setView(next)} aria-label={t('pages.analytics.viewOf', { title })}>
          <ToggleButton value="chart">{t('pages.analytics.chart')}</ToggleButton>
          <ToggleButton value="table">{t('pages.analytics.table')}</ToggleButton>
        </ToggleButtonGroup>
      }
    >
      {points &&
        (view === 'chart' ? (
          <SeriesChart spec={spec} points={points} granularity={granularity} title={title} incompleteFrom={incompleteFrom} />
        ) : (
          <SeriesTable spec={spec} points={points} granularity={granularity} title={title} incompleteFrom={incompleteFrom} />
        ))}
      {points && incompleteFrom !== null && points.some((point) => point.period === incompleteFrom) && <IncompletePeriodLegend period={incompleteFrom} granularity={granularity} />}
    </FigureCard>
  );
}
