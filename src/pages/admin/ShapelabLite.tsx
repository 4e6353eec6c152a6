import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TablePagination from '@mui/material/TablePagination';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useCustomMutation, useList } from '@refinedev/core';
import { keepPreviousData } from '@tanstack/react-query';
import { useEffect, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { liteKeySchema } from '../../../contract/licensing.js';
import { searchFilter } from '../../../providers/dataProvider.js';
import type { DataError } from '../../../providers/dataProvider.js';
import { saveFile } from '../../components/csv.js';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { useLocale } from '../../components/LocaleScope.js';
import { ResponsiveTable } from '../../components/ResponsiveTable.js';
import { PageCard } from '../../components/PageCard.js';
import type { LiteKeysImport, LiteKeysPage } from '../../billing/types.js';
import { useOnDemandRead } from '../../data/useApiAction.js';
import { formatDateTime } from '../../format/index.js';
import { SEARCH_DELAY_MS } from '../../components/search.js';
import './adminTexts.js';

const ROWS_PER_PAGE = [10, 25, 50, 100];

type LiteKey = z.infer<typeof liteKeySchema>;

/**
 * `/admin/shapelab-lite` (spec section 2: the unused keys list): the Shapelab Lite keys nobody has claimed
 * yet, searched by key prefix and paged on the server; exported as CSV, and imported from the CSV files
 * the stores send (a `key` column and an optional `channel` column).
 */
export default function ShapelabLitePage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  const { language } = useLocale();
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(0);
  const [rowsPerPage, setRowsPerPage] = useState(ROWS_PER_PAGE[0] as number);
  const [busy, setBusy] = useState(false);
  const read = useOnDemandRead();
  const { mutateAsync: importKeys } = useCustomMutation<LiteKeysImport, DataError>();

  useEffect(() => {
    const timer = setTimeout(() => {
      setQuery(search.trim());
      setPage(0);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search]);

  // The list comes through Refine's data provider (resource 'lite-keys'), like the users grid.
  const list = useList<LiteKey>({
    resource: 'lite-keys',
    pagination: { currentPage: page + 1, pageSize: rowsPerPage, mode: 'server' },
    filters: query ? [searchFilter(query)] : [],
    queryOptions: { placeholderData: keepPreviousData },
  });
  const keys: LiteKeysPage | null = list.query.isSuccess || list.query.isPlaceholderData ? { data: list.result.data, total: list.result.total ?? 0 } : null;

  async function exportCsv() {
    setBusy(true);
    const search = query ? `?search=${encodeURIComponent(query)}` : '';
    // The unused keys as CSV text (header row `key,channel,importedAt`).
    const csv = await read<string | null>(`/lite-keys/export${search}`);
    if (csv !== undefined) saveFile(csv ?? '', 'shapelab-lite-keys.csv', 'text/csv');
    setBusy(false);
  }

  async function importCsv(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    setBusy(true);
    const csv = await file.text();
    await importKeys({
      url: '/lite-keys/import',
      method: 'post',
      values: { csv },
      successNotification: (response) =>
        response ? { type: 'success', message: t('pages.liteKeys.imported', { imported: response.data.imported, duplicates: response.data.duplicates, invalid: response.data.invalid }) } : false,
    })
      .then(() => {
        setPage(0);
        return list.query.refetch();
      })
      .catch(() => undefined)
      .finally(() => {
        // The same file may be chosen again (after fixing it).
        input.value = '';
        setBusy(false);
      });
  }

  if (!keys && list.query.isLoading) return <FullPageSpinner />;
  const date = (iso: string) => formatDateTime(iso, language);

  return (
    <PageCard title={t(titleKey)} testId="shapelab-lite">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', mb: 1 }}>
        <TextField
          id="lite-keys-search"
          label={t('pages.liteKeys.search')}
          type="search"
          size="small"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          autoComplete="off"
          sx={{ flex: 1, minWidth: 200 }}
        />
        <Button variant="outlined" disabled={busy} onClick={() => void exportCsv()}>
          {t('pages.liteKeys.export')}
        </Button>
        <Button variant="contained" component="label" disabled={busy}>
          {t('pages.liteKeys.import')}
          <input type="file" accept=".csv,text/csv" hidden onChange={(event) => void importCsv(event)} data-testid="lite-keys-file" />
        </Button>
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('pages.liteKeys.importHelp')}
      </Typography>
      {keys && (
        <>
          <Typography sx={{ mb: 1 }} data-testid="lite-keys-total">
            {t('pages.liteKeys.total', { count: keys.total })}
          </Typography>
          {keys.total === 0 ? (
            <Typography color="text.secondary">{t(query ? 'pages.liteKeys.noMatch' : 'pages.liteKeys.empty')}</Typography>
          ) : (
            <>
              {/* Issue 48: the table's pattern (src/components/ResponsiveTable.tsx): cards where the table does not fit. */}
              <ResponsiveTable
                label={t('pages.liteKeys.tableLabel')}
                rows={keys.data}
                rowKey={(key) => key.key}
                columns={[
                  { key: 'key', header: t('pages.liteKeys.key'), cell: (key) => <Box component="span" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>{key.key}</Box> },
                  { key: 'channel', header: t('pages.liteKeys.channel'), cell: (key) => key.channel },
                  { key: 'importedAt', header: t('pages.liteKeys.importedAt'), cell: (key) => date(key.importedAt), nowrap: true },
                ]}
              />
              <TablePagination
                component="div"
                count={keys.total}
                page={page}
                onPageChange={(_event, next) => setPage(next)}
                rowsPerPage={rowsPerPage}
                rowsPerPageOptions={ROWS_PER_PAGE}
                onRowsPerPageChange={(event) => {
                  setRowsPerPage(Number(event.target.value));
                  setPage(0);
                }}
                labelRowsPerPage={t('pages.liteKeys.rowsPerPage')}
                labelDisplayedRows={({ from, to, count }) => t('pages.liteKeys.displayedRows', { from, to, count })}
                getItemAriaLabel={(type) => t(`pages.liteKeys.goTo.${type}`)}
              />
            </>
          )}
        </>
      )}
    </PageCard>
  );
}
