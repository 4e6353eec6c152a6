import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../../components/LocaleScope.js';
import { formatValue, type Unit } from './format.js';
import type { Kpis } from './live.js';

/** The KPIs in the order they show, each in its unit (time figures arrive in seconds). */
const KPIS: { key: keyof Kpis; unit: Unit; scale?: number }[] = [
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

/** The range's totals at the top of the dashboard; skeletons until the first figures arrive. */
export function KpiGrid({ kpis }: { kpis: Kpis | null }) {
  const { t } = useTranslation();
  const { language } = useLocale();
  return (
    <Box component="dl" sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(160px, 1fr))', m: 0, mb: 3 }}>
      {KPIS.map(({ key, unit, scale = 1 }) => (
        <Paper key={key} variant="outlined" sx={{ p: 2 }} data-testid={`kpi-${key}`}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {t(`pages.analytics.kpis.${key}`)}
          </Typography>
          <Typography component="dd" variant="h5" sx={{ m: 0 }} data-testid="kpi-value">
            {kpis ? formatValue(kpis[key] / scale, unit, language) : <Skeleton width="60%" />}
          </Typography>
        </Paper>
      ))}
    </Box>
  );
}
