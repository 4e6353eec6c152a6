import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { useTranslation } from 'react-i18next';
import type { AnalyticsPoint, Granularity } from '../../../../contract/analytics.js';
import { useLocale } from '../../../components/LocaleScope.js';
import { useSeriesLabel, type ChartSpec } from './charts.js';
import { CHART_HEIGHT } from './FigureCard.js';
import { formatValue, periodLabel } from './format.js';

interface SeriesTableProps {
  spec: ChartSpec;
  points: readonly AnalyticsPoint[];
  granularity: Granularity;
  title: string;
  /** The first period not over yet: it and later rows say so. */
  incompleteFrom: string | null;
}

/** A chart's numbers as a table: one row per period, one column per series. */
export function SeriesTable({ spec, points, granularity, title, incompleteFrom }: SeriesTableProps) {
  const { t } = useTranslation();
  const { language } = useLocale();
  const label = useSeriesLabel();
  return (
    // Scrolls within the chart's height; focusable so the keyboard can scroll it too.
    <Box sx={{ maxHeight: CHART_HEIGHT, overflow: 'auto' }} tabIndex={0} role="region" aria-label={title}>
      <Table size="small" stickyHeader aria-label={title}>
        <TableHead>
          <TableRow>
            <TableCell>{t(`pages.analytics.period.${granularity}`)}</TableCell>
            {spec.series.map((series) => (
              <TableCell key={series.id} align="right">
                {label(series)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {points.map((point) => (
            <TableRow key={point.period}>
              <TableCell component="th" scope="row">
                {periodLabel(point.period, granularity, language)}
                {incompleteFrom !== null && point.period >= incompleteFrom && (
                  <Box component="span" sx={{ display: 'block', color: 'text.secondary', typography: 'caption' }}>
                    {t('pages.analytics.incomplete.legend')}
                  </Box>
                )}
              </TableCell>
              {spec.series.map((series) => (
                <TableCell key={series.id} align="right">
                  {formatValue(series.value(point), series.unit, language)}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
