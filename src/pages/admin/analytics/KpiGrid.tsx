import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { AnalyticsComparison, Granularity, KpiKey } from '../../../../contract/analytics.js';
import { useLocale } from '../../../components/LocaleScope.js';
import { formatChange, formatValue, periodLabel, type Unit } from './format.js';
import type { Kpis } from './live.js';
import { VISUALLY_HIDDEN } from './visuallyHidden.js';

/** The KPIs in the order they show, each in its unit (time figures arrive in seconds). */
const KPIS: { key: KpiKey; unit: Unit; scale?: number }[] = [
  { key: 'newUsers', unit: 'count' },
  { key: 'activeUsers', unit: 'mean' },
  { key: 'sessions', unit: 'count' },
  { key: 'averageSessionSeconds', unit: 'minutes', scale: 60 },
  { key: 'playedSeconds', unit: 'hours', scale: 3600 },
  { key: 'exports', unit: 'count' },
  { key: 'launches', unit: 'count' },
  { key: 'activations', unit: 'count' },
  { key: 'sales', unit: 'count' },
];

interface KpiGridProps {
  kpis: Kpis | null;
  /** Each KPI of the complete periods against as many periods before (null: no complete period yet). */
  comparison: AnalyticsComparison | null;
  granularity: Granularity;
}

/**
 * The range's totals at the top of the dashboard; skeletons until the first figures arrive. Under each,
 * its change against the previous periods of the same length (issue 21 item 3): an arrow and the sign
 * besides the colour, and a dash when the previous periods have no figure to compare with.
 */
export function KpiGrid({ kpis, comparison, granularity }: KpiGridProps) {
  const { t } = useTranslation();
  return (
    <Box component="dl" sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(160px, 1fr))', m: 0, mb: 3 }}>
      {KPIS.map(({ key, unit, scale = 1 }) => (
        <Paper key={key} variant="outlined" sx={{ p: 2, position: 'relative' }} data-testid={`kpi-${key}`}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {t(`pages.analytics.kpis.${key}`)}
          </Typography>
          <KpiValue value={kpis ? kpis[key] / scale : null} unit={unit} />
          {kpis && <KpiChange kpi={key} comparison={comparison} granularity={granularity} />}
        </Paper>
      ))}
    </Box>
  );
}

function KpiValue({ value, unit }: { value: number | null; unit: Unit }) {
  const { language } = useLocale();
  return (
    <Typography component="dd" variant="h5" sx={{ m: 0 }} data-testid="kpi-value">
      {value === null ? <Skeleton width="60%" /> : formatValue(value, unit, language)}
    </Typography>
  );
}

function KpiChange({ kpi, comparison, granularity }: { kpi: KpiKey; comparison: AnalyticsComparison | null; granularity: Granularity }) {
  const { t } = useTranslation();
  const { language } = useLocale();
  const common = { component: 'dd', variant: 'body2', 'data-testid': 'kpi-change', sx: { m: 0, mt: 0.5 } } as const;
  if (!comparison) {
    return (
      <Typography {...common} color="text.secondary" data-direction="none">
        <span aria-hidden>— </span>
        {t(`pages.analytics.change.noCompletePeriod.${granularity}`)}
      </Typography>
    );
  }
  const percent = comparison.change[kpi];
  const versus = t(`pages.analytics.change.versus.${granularity}`, { count: comparison.periods });
  const basis = t('pages.analytics.change.basis', {
    from: periodLabel(comparison.from, 'day', language),
    to: periodLabel(comparison.to, 'day', language),
    previousFrom: periodLabel(comparison.previousFrom, 'day', language),
    previousTo: periodLabel(comparison.previousTo, 'day', language),
  });
  if (percent === null) {
    return (
      <Typography {...common} color="text.secondary" data-direction="none">
        <span aria-hidden>— </span>
        <Box component="span" sx={VISUALLY_HIDDEN}>
          {t('pages.analytics.change.noPrevious')}{' '}
        </Box>
        {versus}
        <Box component="span" sx={VISUALLY_HIDDEN}>
          {' '}
          {basis}
        </Box>
      </Typography>
    );
  }
  const direction = percent > 0 ? 'up' : percent < 0 ? 'down' : 'flat';
  const color = { up: 'success.main', down: 'error.main', flat: 'text.secondary' }[direction];
  const arrow = { up: '▲', down: '▼', flat: '▶' }[direction];
  return (
    <Typography {...common} data-direction={direction} title={basis}>
      <Box component="span" sx={{ color, fontWeight: 500 }}>
        <span aria-hidden>{arrow} </span>
        <Box component="span" sx={VISUALLY_HIDDEN}>
          {t(`pages.analytics.change.${direction}`)}{' '}
        </Box>
        <span data-testid="kpi-change-percent">{formatChange(percent, language)}</span>
      </Box>{' '}
      <Box component="span" sx={{ color: 'text.secondary' }}>
        {versus}
      </Box>
      <Box component="span" sx={VISUALLY_HIDDEN}>
        {' '}
        {basis}
      </Box>
    </Typography>
  );
}
