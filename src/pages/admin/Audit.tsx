import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import TablePagination from '@mui/material/TablePagination';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useCustom } from '@refinedev/core';
import { keepPreviousData } from '@tanstack/react-query';
import { useCallback, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import type { AuditLogEntry, AuditPage } from '../../../contract/audit.js';
import { AUDIT_ACTIONS, AUDIT_FILTER_PARAMS, type AuditFilterParam } from '../../../contract/audit-values.js';
import type { DataError } from '../../../providers/dataProvider.js';
import { saveFile } from '../../components/csv.js';
import { ErrorAlert } from '../../components/ErrorAlert.js';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { useLocale } from '../../components/LocaleScope.js';
import { ResponsiveTable } from '../../components/ResponsiveTable.js';
import { PageCard } from '../../components/PageCard.js';
import { useOnDemandRead } from '../../data/useApiAction.js';
import { formatDateTime } from '../../format/index.js';
import { paths } from '../../routing/paths.js';
import { messageKeyOf } from '../../../providers/errors.js';
import type { PageProps } from '../index.js';
import { AUDIT_PAGE_SIZES, auditFilterQuery, auditUrl, readAuditView, writeAuditView, type AuditView } from './audit/view.js';
import './adminTexts.js';

/** A detail's value as a reader takes it in: lists joined, nested values as JSON. */
function detailText(value: unknown): string {
  if (Array.isArray(value)) return value.map(detailText).join(', ');
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * `/admin/audit` (issue 47): every staff action across accounts, newest first: when, who (their email and
 * role as they were), what, about whom (a link to the account while it exists) and what it changed. The
 * filters (who, what, about whom, from and to which day), page and page size are kept in the address, and the
 * filtered log downloads as CSV (the server escapes formulas as the users export does). Admins only, as the
 * server decides (`audit.read`); nothing here changes an entry, and no route could.
 */
export default function AuditPage({ titleKey }: PageProps) {
  const { t } = useTranslation();
  const { language, localize } = useLocale();
  const [searchParams, setSearchParams] = useSearchParams();
  const view = useMemo(() => readAuditView(searchParams), [searchParams]);
  const show = useCallback(
    (change: Partial<AuditView>) => setSearchParams((current) => writeAuditView(current, { ...readAuditView(current), ...change }), { replace: true }),
    [setSearchParams],
  );
  // The form's fields, applied to the address (and the list) when it is sent; a new address fills them anew.
  const [draft, setDraft] = useState(view.filters);
  const [shown, setShown] = useState(view.filters);
  if (shown !== view.filters && JSON.stringify(shown) !== JSON.stringify(view.filters)) {
    setShown(view.filters);
    setDraft(view.filters);
  }

  const { query, result } = useCustom<AuditPage, DataError>({ url: auditUrl(view), method: 'get', queryOptions: { placeholderData: keepPreviousData } });
  const log = query.isSuccess || query.isPlaceholderData ? result.data : null;
  const read = useOnDemandRead();
  const [exporting, setExporting] = useState(false);

  const exportCsv = async () => {
    setExporting(true);
    const csv = await read<string | null>(`/admin/audit/export${auditFilterQuery(view.filters)}`);
    if (csv !== undefined) saveFile(csv ?? '', `shapelab-audit-${new Date().toISOString().slice(0, 10)}.csv`, 'text/csv;charset=utf-8');
    setExporting(false);
  };
  const apply = (event: FormEvent) => {
    event.preventDefault();
    show({ filters: draft, page: 0 });
  };
  const field = (name: Exclude<AuditFilterParam, 'action'>, type: 'text' | 'date') => (
    <TextField
      id={`audit-${name}`}
      size="small"
      type={type}
      label={t(`pages.audit.filters.${name}`)}
      value={draft[name] ?? ''}
      onChange={(event) => setDraft((current) => ({ ...current, [name]: event.target.value }))}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: type === 'text' ? { maxLength: 254 } : {} }}
      sx={{ minWidth: type === 'text' ? 240 : 170 }}
    />
  );
  const actionName = (entry: Pick<AuditLogEntry, 'action'>) => t(`pages.audit.actions.${entry.action}`);

  if (!log && query.isLoading) return <FullPageSpinner />;

  return (
    <PageCard title={t(titleKey)} testId="admin-audit" wide>
      <Typography sx={{ mb: 2 }}>{t('pages.audit.intro')}</Typography>
      <Box component="form" onSubmit={apply} aria-label={t('pages.audit.filters.label')} sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', mb: 2 }}>
        {field('actor', 'text')}
        <TextField
          id="audit-action"
          select
          size="small"
          label={t('pages.audit.filters.action')}
          value={draft.action ?? ''}
          onChange={(event) => setDraft((current) => ({ ...current, action: event.target.value }))}
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          sx={{ minWidth: 220 }}
        >
          <option value="">{t('pages.audit.filters.anyAction')}</option>
          {AUDIT_ACTIONS.map((action) => (
            <option key={action} value={action}>
              {actionName({ action })}
            </option>
          ))}
        </TextField>
        {field('subject', 'text')}
        {field('from', 'date')}
        {field('to', 'date')}
        <Button type="submit" variant="contained">
          {t('pages.audit.filters.apply')}
        </Button>
        <Button type="button" disabled={AUDIT_FILTER_PARAMS.every((name) => !view.filters[name])} onClick={() => show({ filters: {}, page: 0 })}>
          {t('pages.audit.filters.clear')}
        </Button>
        <Box sx={{ flex: 1 }} />
        <Button type="button" variant="outlined" disabled={exporting} onClick={() => void exportCsv()}>
          {t('pages.audit.export')}
        </Button>
      </Box>

      {query.isError && <ErrorAlert messageKey={messageKeyOf(query.error)} />}
      {log &&
        (log.total === 0 ? (
          <Typography color="text.secondary" data-testid="audit-empty">
            {t(AUDIT_FILTER_PARAMS.some((name) => view.filters[name]) ? 'pages.audit.noMatch' : 'pages.audit.empty')}
          </Typography>
        ) : (
          <>
            {/* Issue 48: the table's pattern (src/components/ResponsiveTable.tsx): cards where the table does not fit. */}
            <ResponsiveTable
              label={t('pages.audit.tableLabel')}
              rows={log.data}
              rowKey={(entry) => entry.id}
              rowTestId={() => 'audit-row'}
              rowData={(entry) => ({ action: entry.action })}
              columns={[
                { key: 'action', header: t('pages.audit.columns.action'), cell: (entry) => actionName(entry) },
                { key: 'when', header: t('pages.audit.columns.when'), cell: (entry) => formatDateTime(entry.createdAt, language), nowrap: true },
                {
                  key: 'subject',
                  header: t('pages.audit.columns.subject'),
                  cell: (entry) =>
                    entry.subjectId === null ? (
                      <Typography variant="body2" component="span" color="text.secondary">
                        {t('pages.audit.noSubject')}
                      </Typography>
                    ) : entry.subjectEmail ? (
                      <Link component={RouterLink} to={localize(paths.userShow(entry.subjectId))} underline="hover">
                        {entry.subjectEmail}
                      </Link>
                    ) : (
                      <Typography variant="body2" component="span" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
                        {t('pages.audit.deletedSubject', { id: entry.subjectId })}
                      </Typography>
                    ),
                },
                {
                  key: 'actor',
                  header: t('pages.audit.columns.actor'),
                  cell: (entry) => (
                    <>
                      {entry.actorEmail}
                      <Typography component="span" variant="body2" color="text.secondary">
                        {` · ${t(`pages.users.roles.${entry.actorRole}`)}`}
                      </Typography>
                    </>
                  ),
                },
                {
                  key: 'details',
                  header: t('pages.audit.columns.details'),
                  cell: (entry) => (
                    <Typography variant="body2" component="span" sx={{ display: 'block', maxWidth: 360, overflowWrap: 'anywhere' }}>
                      {Object.entries(entry.details)
                        .map(([name, value]) => `${name}: ${detailText(value)}`)
                        .join(' · ')}
                    </Typography>
                  ),
                },
              ]}
            />
            <TablePagination
              component="div"
              count={log.total}
              page={Math.min(view.page, Math.max(0, Math.ceil(log.total / view.pageSize) - 1))}
              onPageChange={(_event, next) => show({ page: next })}
              rowsPerPage={view.pageSize}
              rowsPerPageOptions={[...AUDIT_PAGE_SIZES]}
              onRowsPerPageChange={(event) => show({ pageSize: Number(event.target.value), page: 0 })}
              labelRowsPerPage={t('pages.jobs.rowsPerPage')}
              labelDisplayedRows={({ from, to, count }) => t('pages.jobs.displayedRows', { from, to, count })}
              getItemAriaLabel={(type) => t(`pages.jobs.goTo.${type}`)}
            />
          </>
        ))}
    </PageCard>
  );
}
