import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { RETENTION_DAYS, type CohortResponse } from '../../../../contract/analytics.js';
import { useLocale } from '../../../components/LocaleScope.js';
import { retentionAt, heatColor } from './cohorts.js';
import { formatPercent, formatValue, periodLabel } from './format.js';

/** Read out by screen readers in place of the em dash, which says nothing spoken. */
const VISUALLY_HIDDEN = { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;

/**
 * Sign-up cohorts against retention at days 7, 14, 21, 28 and 366 (spec section 9): the share and the
 * count in each cell, the background shaded by the share. A cohort too young for a day shows an em dash.
 */
export function CohortHeatMap({ response, title }: { response: CohortResponse; title: string }) {
  const { t } = useTranslation();
  const { language } = useLocale();
  if (response.cohorts.length === 0) return <Typography color="text.secondary">{t('pages.cohort.empty')}</Typography>;
  return (
    <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={title}>
      <Table size="small" aria-label={title} data-testid="cohort-table">
        <TableHead>
          <TableRow>
            <TableCell>{t(`pages.cohort.cohort.${response.granularity}`)}</TableCell>
            <TableCell align="right">{t('pages.cohort.users')}</TableCell>
            {RETENTION_DAYS.map((day) => (
              <TableCell key={day} align="center">
                {t('pages.cohort.day', { day })}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {response.cohorts.map((cohort) => (
            <TableRow key={cohort.cohort}>
              <TableCell component="th" scope="row" sx={{ whiteSpace: 'nowrap' }}>
                {periodLabel(cohort.cohort, response.granularity, language)}
              </TableCell>
              <TableCell align="right">{formatValue(cohort.users, 'count', language)}</TableCell>
              {RETENTION_DAYS.map((day) => {
                const { users, percent } = retentionAt(cohort, day);
                if (users === null || percent === null) {
                  return (
                    <TableCell key={day} align="center" data-testid="retention-pending">
                      <span aria-hidden>—</span>
                      <Box component="span" sx={VISUALLY_HIDDEN}>
                        {t('pages.cohort.notYet')}
                      </Box>
                    </TableCell>
                  );
                }
                return (
                  <TableCell key={day} align="center" sx={{ bgcolor: heatColor(percent), color: 'text.primary', whiteSpace: 'nowrap' }} data-testid="retention">
                    {formatPercent(percent, language)}
                    <Typography component="span" variant="body2" sx={{ display: 'block', color: 'inherit' }}>
                      {t('pages.cohort.usersCount', { count: users, formatted: formatValue(users, 'count', language) })}
                    </Typography>
                  </TableCell>
                );
              })}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
