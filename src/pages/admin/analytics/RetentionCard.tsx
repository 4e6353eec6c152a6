import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useCustom } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import type { Retention } from '../../../../contract/retention.js';
import { CANCELLATION_ROWS } from '../../../../contract/subscription-values.js';
import type { DataError } from '../../../../providers/dataProvider.js';
import { ErrorAlert } from '../../../components/ErrorAlert.js';
import { messageKeyOf } from '../../../../providers/errors.js';
import { CHART_HEIGHT, FigureCard } from './FigureCard.js';

/** The server answers for up to 36 months at once: a longer range shows its last 36. */
const MAX_MONTHS = 36;

/** The first day of the range, moved up so that the range spans at most MAX_MONTHS calendar months. */
export function clampedFrom(from: string, to: string): string {
  const end = new Date(`${to.slice(0, 7)}-01T00:00:00.000Z`);
  end.setUTCMonth(end.getUTCMonth() - (MAX_MONTHS - 1));
  const earliest = end.toISOString().slice(0, 10);
  return from < earliest ? earliest : from;
}

/**
 * Issue 46 items 5 and 8 on the dashboard: per month of the filters' range, the failed renewals that were
 * paid after all (recovered) or lost, and the cancellations by the reason customers gave
 * (`GET /billing/retention`), as a table and a CSV file.
 */
export function RetentionCard({ from: asked, to }: { from: string; to: string }) {
  const { t } = useTranslation();
  const from = clampedFrom(asked, to);
  const { result, query } = useCustom<Retention, DataError>({
    url: `/billing/retention?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
    method: 'get',
    errorNotification: false,
  });
  const months = (result.data as Retention | undefined)?.months ?? null;
  const title = t('pages.analytics.retention.title');
  const reason = (row: (typeof CANCELLATION_ROWS)[number]) => (row === 'none' ? t('pages.analytics.retention.none') : t(`pages.subscription.reasons.${row}`));
  const header = [t('pages.analytics.retention.month'), t('pages.analytics.retention.recovered'), t('pages.analytics.retention.lost'), ...CANCELLATION_ROWS.map(reason)];
  const rows = (months ?? []).map((month) => [month.month, month.renewals.recovered, month.renewals.lost, ...CANCELLATION_ROWS.map((row) => month.cancellations[row])]);
  const csv = months ? () => ({ name: `retention-${from}-${to}.csv`, header, rows }) : null;
  const empty = months !== null && rows.every((row) => row.slice(1).every((count) => count === 0));

  return (
    <FigureCard title={title} testId="retention" csv={csv} loading={months === null && !query.isError} stale={false}>
      <ErrorAlert messageKey={query.isError ? messageKeyOf(query.error) : null} />
      <Typography color="text.secondary" variant="body2" sx={{ mb: 1 }}>
        {empty ? t('pages.analytics.retention.empty') : t('pages.analytics.retention.intro')}
      </Typography>
      {months && (
        // Scrolls within the chart's height and sideways on a phone; focusable so the keyboard can scroll it too.
        <Box sx={{ maxHeight: CHART_HEIGHT, overflow: 'auto' }} tabIndex={0} role="region" aria-label={title}>
          <Table size="small" stickyHeader aria-label={title}>
            <TableHead>
              <TableRow>
                {header.map((cell, index) => (
                  <TableCell key={cell} align={index === 0 ? 'left' : 'right'}>
                    {cell}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map(([month, ...counts]) => (
                <TableRow key={String(month)}>
                  <TableCell component="th" scope="row">
                    {month}
                  </TableCell>
                  {counts.map((count, index) => (
                    <TableCell key={header[index + 1]} align="right">
                      {count}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
    </FigureCard>
  );
}
