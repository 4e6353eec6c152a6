import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { CohortResponse } from '../../../../contract/analytics.js';
import { RETENTION_DAYS } from '../../../../contract/analytics-values.js';
import { useLocale } from '../../../components/LocaleScope.js';
import { heatColor, retentionAt } from './cohorts.js';
import { formatPercent, formatValue, periodLabel } from './format.js';
import { VISUALLY_HIDDEN } from './visuallyHidden.js';

/** The cohort column stays in view while the retention columns scroll under it (issue 21 item 3, phones). */
const STICKY = { position: 'sticky', left: 0, zIndex: 2, bgcolor: 'background.paper', boxShadow: 'inset -1px 0 0 rgba(0, 0, 0, 0.12)' } as const;
/** Wide enough for "100 %" over "1,234 users" at the body size: no squeezed or wrapped cell text. */
const CELL_MIN_WIDTH = 92;

/**
 * Sign-up cohorts against retention at days 7, 14, 21, 28 and 366 (spec section 9): the share and the
 * count in each cell, the background shaded by the share, and a legend of the shades. A cohort too
 * young for a day shows an em dash. The table scrolls in its own box (issue 20 item 10, issue 21
 * item 3): the page stays as wide as a 390 px phone, the cohort column stays put. The box is also the
 * containing block of the cells' visually hidden texts, so they scroll with the table.
 */
export function CohortHeatMap({ response, title }: { response: CohortResponse; title: string }) {
  const { t } = useTranslation();
  const { language } = useLocale();
  if (response.cohorts.length === 0) return <Typography color="text.secondary">{t('pages.cohort.empty')}</Typography>;
  return (
    <>
      <Box sx={{ overflowX: 'auto', maxWidth: '100%', position: 'relative' }} tabIndex={0} role="region" aria-label={title} data-testid="cohort-scroll">
        <Table size="small" aria-label={title} data-testid="cohort-table">
          <TableHead>
            <TableRow>
              <TableCell sx={STICKY}>{t(`pages.cohort.cohort.${response.granularity}`)}</TableCell>
              <TableCell align="right">{t('pages.cohort.users')}</TableCell>
              {RETENTION_DAYS.map((day) => (
                <TableCell key={day} align="center" sx={{ minWidth: CELL_MIN_WIDTH, whiteSpace: 'nowrap' }}>
                  {t('pages.cohort.day', { day })}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {response.cohorts.map((cohort) => (
              <TableRow key={cohort.cohort}>
                <TableCell component="th" scope="row" sx={{ ...STICKY, whiteSpace: 'nowrap' }} data-testid="cohort-name">
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
                    <TableCell
                      key={day}
                      align="center"
                      sx={{ bgcolor: heatColor(percent), color: 'text.primary', whiteSpace: 'nowrap', minWidth: CELL_MIN_WIDTH }}
                      data-testid="retention"
                    >
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
      <HeatLegend />
    </>
  );
}

/** What the shades and the dash mean. */
function HeatLegend() {
  const { t } = useTranslation();
  const { language } = useLocale();
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 2, rowGap: 1, mt: 1.5 }} data-testid="cohort-legend">
      <Typography variant="body2" color="text.secondary">
        {t('pages.cohort.legend')}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography variant="body2">{formatPercent(0, language)}</Typography>
        <Box
          aria-hidden
          sx={{ width: 120, height: 14, border: '1px solid rgba(0, 0, 0, 0.23)', background: `linear-gradient(to right, ${heatColor(0)}, ${heatColor(50)}, ${heatColor(100)})` }}
        />
        <Typography variant="body2">{formatPercent(100, language)}</Typography>
      </Box>
      <Typography variant="body2" color="text.secondary">
        <span aria-hidden>— </span>
        {t('pages.cohort.notYet')}
      </Typography>
    </Box>
  );
}
