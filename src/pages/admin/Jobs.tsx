import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip, { type ChipProps } from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import TablePagination from '@mui/material/TablePagination';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useCustom, useCustomMutation } from '@refinedev/core';
import { keepPreviousData } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { Job, JobsResponse, JobStatus } from '../../../contract/jobs.js';
import type { DataError } from '../../../providers/dataProvider.js';
import { errorText } from '../../../providers/errors.js';
import { ResponsiveTable } from '../../components/ResponsiveTable.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { useLocale } from '../../components/LocaleScope.js';
import { PageCard } from '../../components/PageCard.js';
import { formatDateTime } from '../../format/index.js';
import type { PageProps } from '../index.js';
import { JOB_PAGE_SIZES, jobsUrl, readJobsView, writeJobsView, type JobsView } from './jobs/view.js';
import './adminTexts.js';

/** The filter's choices, in the order a reader looks for trouble: all, then what waits, runs, failed, done. */
const FILTERS = ['all', 'pending', 'running', 'failed', 'done'] as const;
type Filter = (typeof FILTERS)[number];

/** The counts the server keeps for the top of the page (done jobs are not counted: they are cleaned up). */
const COUNTED = ['pending', 'running', 'failed'] as const;

const STATUS_COLOURS: Record<JobStatus, ChipProps['color']> = { pending: 'default', running: 'primary', done: 'success', failed: 'error' };

/**
 * `/admin/jobs` (issue 19): the durable background work (mail, refunds, cancellations...) as admins see
 * it: how many jobs wait, run and failed, the list newest first filtered by status (kept in the address),
 * each failure with its last error, and a failed job tried again after a confirmation.
 */
export default function JobsPage({ titleKey }: PageProps) {
  const { t } = useTranslation();
  const { language } = useLocale();
  const [searchParams, setSearchParams] = useSearchParams();
  const view = useMemo(() => readJobsView(searchParams), [searchParams]);
  const show = useCallback(
    (change: Partial<JobsView>) => setSearchParams((current) => writeJobsView(current, { ...readJobsView(current), ...change }), { replace: true }),
    [setSearchParams],
  );

  const { query, result } = useCustom<JobsResponse, DataError>({
    url: jobsUrl(view),
    method: 'get',
    queryOptions: { placeholderData: keepPreviousData },
  });
  const jobs = query.isSuccess || query.isPlaceholderData ? result.data : null;

  const [confirming, setConfirming] = useState<Job | null>(null);
  const { mutate: retry, mutation: retrying } = useCustomMutation<Job, DataError>();

  const kindName = (kind: string) => t(`pages.jobs.kinds.${kind}`, { defaultValue: kind });
  const when = (iso: string) => formatDateTime(iso, language);

  function runConfirmed() {
    const job = confirming;
    if (!job) return;
    retry(
      {
        url: `/admin/jobs/${encodeURIComponent(job.id)}/retry`,
        method: 'post',
        values: {},
        successNotification: () => ({ type: 'success', message: t('pages.jobs.retried', { kind: kindName(job.kind) }) }),
        errorNotification: (error) => ({ type: 'error', message: errorText(t, error) }),
      },
      // Also after a refusal the list is read again: the job may have been retried by another admin.
      { onSettled: () => void query.refetch().then(() => setConfirming(null)) },
    );
  }

  if (!jobs && query.isLoading) return <FullPageSpinner />;

  return (
    <PageCard title={t(titleKey)} testId="admin-jobs" wide>
      <Typography sx={{ mb: 2 }}>{t('pages.jobs.intro')}</Typography>
      {jobs && (
        <Box component="ul" aria-label={t('pages.jobs.countsLabel')} sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, listStyle: 'none', p: 0, m: 0, mb: 3 }}>
          {COUNTED.map((status) => (
            <Paper component="li" variant="outlined" key={status} sx={{ px: 2, py: 1, minWidth: 140 }} data-testid={`jobs-count-${status}`}>
              <Typography variant="body2" color="text.secondary">
                {t(`pages.jobs.counts.${status}`)}
              </Typography>
              <Typography variant="h5" component="p" color={status === 'failed' && jobs.counts.failed > 0 ? 'error' : 'text.primary'}>
                {jobs.counts[status].toLocaleString(language)}
              </Typography>
            </Paper>
          ))}
        </Box>
      )}

      <TextField
        id="jobs-status"
        select
        size="small"
        label={t('pages.jobs.filter')}
        value={view.status ?? 'all'}
        onChange={(event) => {
          const value = event.target.value as Filter;
          show({ status: value === 'all' ? null : value, page: 0 });
        }}
        slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
        sx={{ mb: 2, minWidth: 220 }}
      >
        {FILTERS.map((filter) => (
          <option key={filter} value={filter}>
            {t(`pages.jobs.filters.${filter}`)}
          </option>
        ))}
      </TextField>

      {jobs &&
        (jobs.total === 0 ? (
          <Typography color="text.secondary" data-testid="jobs-empty">
            {t(view.status ? 'pages.jobs.emptyStatus' : 'pages.jobs.empty')}
          </Typography>
        ) : (
          <>
            {/* Issue 48: the table's pattern (src/components/ResponsiveTable.tsx): the retry always in view, cards on a phone. */}
            <ResponsiveTable
              label={t('pages.jobs.tableLabel')}
              rows={jobs.data}
              rowKey={(job) => job.id}
              rowTestId={() => 'job-row'}
              rowData={(job) => ({ 'job-id': job.id })}
              columns={[
                { key: 'kind', header: t('pages.jobs.kind'), cell: (job) => kindName(job.kind) },
                {
                  key: 'status',
                  header: t('pages.jobs.status'),
                  cell: (job) => <Chip size="small" color={STATUS_COLOURS[job.status]} label={t(`pages.jobs.statuses.${job.status}`)} />,
                },
                {
                  key: 'when',
                  header: t('pages.jobs.when'),
                  cell: (job) => (job.finishedAt ? t('pages.jobs.finishedAt', { date: when(job.finishedAt) }) : t('pages.jobs.runAt', { date: when(job.runAt) })),
                },
                { key: 'attempts', header: t('pages.jobs.attempts'), cell: (job) => t('pages.jobs.attemptsOf', { attempts: job.attempts, max: job.maxAttempts }), nowrap: true },
                { key: 'created', header: t('pages.jobs.created'), cell: (job) => when(job.createdAt) },
                {
                  key: 'lastError',
                  header: t('pages.jobs.lastError'),
                  cell: (job) =>
                    job.lastError ? (
                      <Typography variant="body2" component="span" sx={{ display: 'block', maxWidth: 360, fontFamily: 'monospace', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                        {job.lastError}
                      </Typography>
                    ) : (
                      <Typography variant="body2" component="span" color="text.secondary">
                        {t('pages.jobs.noError')}
                      </Typography>
                    ),
                },
              ]}
              actionsHeader={t('pages.jobs.actions')}
              actions={(job) =>
                job.status === 'failed' && (
                  <Button
                    size="small"
                    variant="outlined"
                    disabled={retrying.isPending}
                    onClick={() => setConfirming(job)}
                    aria-label={t('pages.jobs.retryLabel', { kind: kindName(job.kind), date: when(job.createdAt) })}
                  >
                    {t('pages.jobs.retry')}
                  </Button>
                )
              }
            />
            <TablePagination
              component="div"
              count={jobs.total}
              page={Math.min(view.page, Math.max(0, Math.ceil(jobs.total / view.pageSize) - 1))}
              onPageChange={(_event, next) => show({ page: next })}
              rowsPerPage={view.pageSize}
              rowsPerPageOptions={[...JOB_PAGE_SIZES]}
              onRowsPerPageChange={(event) => show({ pageSize: Number(event.target.value), page: 0 })}
              labelRowsPerPage={t('pages.jobs.rowsPerPage')}
              labelDisplayedRows={({ from, to, count }) => t('pages.jobs.displayedRows', { from, to, count })}
              getItemAriaLabel={(type) => t(`pages.jobs.goTo.${type}`)}
            />
          </>
        ))}

      <ConfirmDialog
        open={confirming !== null}
        title={t('pages.jobs.confirmTitle')}
        confirmLabel={t('pages.jobs.retry')}
        cancelLabel={t('pages.jobs.cancel')}
        busy={retrying.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={runConfirmed}
      >
        {confirming && t('pages.jobs.confirmText', { kind: kindName(confirming.kind), date: when(confirming.createdAt), max: confirming.maxAttempts })}
      </ConfirmDialog>
    </PageCard>
  );
}
