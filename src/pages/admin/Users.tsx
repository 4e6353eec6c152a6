import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import { DataGrid, GRID_CHECKBOX_SELECTION_COL_DEF, type GridRowSelectionModel } from '@mui/x-data-grid';
import { deDE } from '@mui/x-data-grid/locales';
import { useCustomMutation, useDelete, useGetIdentity, useInvalidate, useUpdate, type GetListResponse, type HttpError } from '@refinedev/core';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { AdminUser, BulkUserAction, BulkUsersResponse, Me, Role } from '../../../contract/users.js';
import type { DataError } from '../../../providers/dataProvider.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { saveFile } from '../../components/csv.js';
import { useLocale } from '../../components/LocaleScope.js';
import { PageCard } from '../../components/PageCard.js';
import { Staggered } from '../../components/Staggered.js';
import { useOnDemandRead } from '../../data/useApiAction.js';
import type { PageProps } from '../index.js';
import { BulkActions } from './users/BulkActions.js';
import { HIDDEN_BY_DEFAULT, userColumns, type UserAction } from './users/columns.js';
import { UserHistoryDialog } from './users/UserHistoryDialog.js';
import { UsersToolbar } from './users/UsersToolbar.js';
import { exportQueryOf, useUsersGrid } from './users/useUsersGrid.js';
import { PAGE_SIZES, SEARCH_MAX_LENGTH } from './users/view.js';
import './adminTexts.js';

/**
 * The grid renders rows only near the viewport but all its columns, even those scrolled out of view:
 * few enough to cost little, and the manage column stays reachable by keyboard and assistive technology.
 */
const COLUMN_BUFFER_PX = 4000;

type Confirmation = { action: Exclude<UserAction, 'history'>; user: AdminUser };
type Done = { key: 'promoted' | 'demoted' | 'deleted'; email: string };
const NOTHING_SELECTED: GridRowSelectionModel = { type: 'include', ids: new Set() };

/** The row as it looks with `roles` (the admin column follows the roles). */
function withRoles(user: AdminUser, roles: Role[]): AdminUser {
  return { ...user, roles, isAdmin: roles.includes('admin') };
}

/**
 * `/admin/users` (spec sections 2 and 6, issue 21): everyone's account, paged, sorted, searched and
 * filtered on the server, the view kept in the address (./users/useUsersGrid.ts). A row opens the user's
 * page. Role changes and deletions are confirmed first, show at once (optimistic) and are rolled back
 * with the server's reason when it refuses. A row's history shows its audit trail. Selected rows can be
 * changed or deleted together after one confirmation naming the count, and the list (every page) can be
 * exported as CSV.
 */
export default function UsersPage({ titleKey }: PageProps) {
  const { t } = useTranslation();
  const { language, localize } = useLocale();
  const navigate = useNavigate();
  const { view, show, gridProps, searchText, setSearchText } = useUsersGrid();
  const { data: me } = useGetIdentity<Me>();
  const userPath = useCallback((user: Pick<AdminUser, 'id'>) => localize(`/admin/users/${encodeURIComponent(user.id)}`), [localize]);

  // Selection belongs to the rows on screen: a new page, order, search or filter starts without one.
  const [selection, setSelection] = useState<GridRowSelectionModel>(NOTHING_SELECTED);
  const viewKey = JSON.stringify(view);
  useEffect(() => setSelection(NOTHING_SELECTED), [viewKey]);
  const selectedIds = [...selection.ids].map(String);
  const [bulk, setBulk] = useState<BulkUserAction | null>(null);
  const { mutate: runBulk, mutation: bulkMutation } = useCustomMutation<BulkUsersResponse, DataError>();
  const invalidate = useInvalidate();
  const read = useOnDemandRead();
  const [exporting, setExporting] = useState(false);

  const [confirming, setConfirming] = useState<Confirmation | null>(null);
  const [history, setHistory] = useState<{ user: AdminUser | null; open: boolean }>({ user: null, open: false });
  const { mutate: update } = useUpdate<AdminUser, HttpError, { roles: Role[] }>();
  const { mutate: remove } = useDelete<AdminUser>();

  const columns = useMemo(
    () =>
      userColumns({
        t,
        language,
        selfId: me?.id,
        onAction: (action, user) => {
          if (action === 'history') setHistory({ user, open: true });
          else setConfirming({ action, user });
        },
        userPath,
      }),
    [t, language, me?.id, userPath],
  );

  const done = (key: Done['key'], email: string) => ({ type: 'success' as const, message: t(`pages.users.done.${key}`, { email }) });
  // The server's reason (the data provider's translated messageKey), after the optimistic change is rolled back.
  const refused = (error?: HttpError) => ({ type: 'error' as const, message: error?.message ?? t('errors.DEFAULT') });

  function changeRoles(user: AdminUser, roles: Role[]) {
    update(
      {
        resource: 'users',
        id: user.id,
        values: { roles },
        mutationMode: 'optimistic',
        optimisticUpdateMap: {
          list: (previous: GetListResponse<AdminUser> | null | undefined, values, id) =>
            previous ? { ...previous, data: previous.data.map((row) => (String(row.id) === String(id) ? withRoles(row, values.roles) : row)) } : null,
          many: false,
          detail: false,
        },
        successNotification: () => done(roles.includes('admin') ? 'promoted' : 'demoted', user.email),
        errorNotification: refused,
      },
    );
  }

  function deleteUser(user: AdminUser) {
    remove(
      { resource: 'users', id: user.id, mutationMode: 'optimistic', successNotification: () => done('deleted', user.email), errorNotification: refused },
    );
  }

  function runBulkConfirmed() {
    if (!bulk) return;
    const action = bulk;
    const ids = selectedIds;
    setBulk(null);
    runBulk(
      {
        url: '/users/bulk',
        method: 'post',
        values: { action, ids },
        successNotification: (response) => {
          const result = response?.data;
          if (!result) return false;
          const reasons = [...new Set(result.skipped.map((skip) => t(`errors.${skip.messageKey}`)))].join(' ');
          const changed = t('pages.users.bulk.done', { count: result.done.length });
          const left = result.skipped.length > 0 ? ` ${t('pages.users.bulk.skipped', { count: result.skipped.length, reasons })}` : '';
          return { type: result.skipped.length > 0 ? 'error' : 'success', message: `${changed}${left}` };
        },
        errorNotification: refused,
      },
      {
        onSettled: () => {
          setSelection(NOTHING_SELECTED);
          void invalidate({ resource: 'users', invalidates: ['list'] });
        },
      },
    );
  }

  async function exportCsv() {
    setExporting(true);
    // Through the data provider (bearer token), as the other downloads: the CSV arrives as text.
    const csv = await read<string | null>(`/users/export${exportQueryOf(view)}`);
    if (csv !== undefined) saveFile(csv ?? '', `shapelab-users-${new Date().toISOString().slice(0, 10)}.csv`, 'text/csv;charset=utf-8');
    setExporting(false);
  }

  function runConfirmed() {
    if (!confirming) return;
    const { action, user } = confirming;
    setConfirming(null);
    if (action === 'delete') deleteUser(user);
    else changeRoles(user, action === 'promote' ? ['user', 'admin'] : ['user']);
  }

  const localeText = useMemo(
    () => ({
      ...(language === 'de' ? deDE.components.MuiDataGrid.defaultProps.localeText : {}),
      booleanCellTrueLabel: t('pages.users.yes'),
      booleanCellFalseLabel: t('pages.users.no'),
      noRowsLabel: t(Object.keys(view.filters).length > 0 ? 'pages.users.filters.noMatch' : view.search ? 'pages.users.noMatch' : 'pages.users.empty'),
      actionsCellMore: t('pages.users.rowActions'),
    }),
    [language, t, view.search, view.filters],
  );
  const confirmTexts = confirming && {
    title: t(`pages.users.confirm.${confirming.action}.title`, { email: confirming.user.email }),
    text: t(`pages.users.confirm.${confirming.action}.text`, { email: confirming.user.email }),
    confirm: t(`pages.users.confirm.${confirming.action}.confirm`),
  };

  return (
    <PageCard title={t(titleKey)} testId="admin-users" wide>
      <TextField
        id="users-search"
        label={t('pages.users.search')}
        type="search"
        size="small"
        value={searchText}
        onChange={(event) => setSearchText(event.target.value)}
        autoComplete="off"
        slotProps={{ htmlInput: { maxLength: SEARCH_MAX_LENGTH } }}
        sx={{ mb: 2, width: '100%', maxWidth: 420 }}
      />
      <UsersToolbar
        filters={view.filters}
        onFilter={(name, value) => show({ filters: { ...view.filters, [name]: value } })}
        onClear={() => show({ filters: {} })}
        onExport={() => void exportCsv()}
        exporting={exporting}
      />
      <BulkActions count={selectedIds.length} busy={bulkMutation.isPending} onAction={setBulk} />
      {/* Issue 20 item 10: the grid scrolls inside its own box; minWidth 0 lets the box shrink to a phone's width.
          The grid commits after the search and filters (Staggered): its first render is the screen's longest task. */}
      <Staggered>
        <Box sx={{ height: 'max(420px, calc(100vh - 320px))', width: '100%', minWidth: 0, overflowX: 'auto' }}>
          <DataGrid
            {...gridProps}
            columns={columns}
            pageSizeOptions={PAGE_SIZES}
            disableColumnFilter
            columnBufferPx={COLUMN_BUFFER_PX}
            initialState={{ columns: { columnVisibilityModel: HIDDEN_BY_DEFAULT } }}
            checkboxSelection
            disableRowSelectionOnClick
            rowSelectionModel={selection}
            onRowSelectionModelChange={setSelection}
            onCellClick={(params) => {
              if (params.field === GRID_CHECKBOX_SELECTION_COL_DEF.field || params.field === 'manage') return;
              void navigate(userPath({ id: String(params.id) }));
            }}
            sx={{
              '& .MuiDataGrid-row': { cursor: 'pointer' },
              // DataGrid's filler (the line below the last row, and room for the horizontal scrollbar) is drawn
              // where the rows end, and jumps when they arrive: Lighthouse counted a layout shift of 0.13 on
              // every load. It is left out; the last row draws its own line, and the rows leave the scrollbar's room.
              '& .MuiDataGrid-filler': { display: 'none' },
              '& .MuiDataGrid-row--lastVisible .MuiDataGrid-cell': { borderBottom: '1px solid var(--DataGrid-rowBorderColor)' },
              '& .MuiDataGrid-virtualScrollerContent': { boxSizing: 'content-box', paddingBottom: 'calc(var(--DataGrid-hasScrollX) * var(--DataGrid-scrollbarSize))' },
            }}
            localeText={localeText}
            aria-label={t('pages.users.tableLabel')}
          />
        </Box>
      </Staggered>
      <ConfirmDialog
        open={confirming !== null}
        title={confirmTexts?.title ?? ''}
        confirmLabel={confirmTexts?.confirm ?? ''}
        cancelLabel={t('pages.users.cancel')}
        destructive={confirming?.action !== 'promote'}
        onCancel={() => setConfirming(null)}
        onConfirm={runConfirmed}
      >
        {confirmTexts?.text}
      </ConfirmDialog>
      <ConfirmDialog
        open={bulk !== null}
        title={bulk ? t(`pages.users.bulk.confirm.${bulk}.title`, { count: selectedIds.length }) : ''}
        confirmLabel={bulk ? t(`pages.users.bulk.${bulk}`) : ''}
        cancelLabel={t('pages.users.cancel')}
        destructive={bulk !== 'grant-admin'}
        onCancel={() => setBulk(null)}
        onConfirm={runBulkConfirmed}
      >
        {bulk ? t(`pages.users.bulk.confirm.${bulk}.text`) : ''}
      </ConfirmDialog>
      <UserHistoryDialog
        user={history.user}
        open={history.open}
        onClose={() => setHistory((current) => ({ ...current, open: false }))}
        onExited={() => setHistory({ user: null, open: false })}
      />
    </PageCard>
  );
}
