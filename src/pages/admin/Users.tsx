import Box from '@mui/material/Box';
import type { Theme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { GridRowSelectionModel } from '@mui/x-data-grid';
import { useCustomMutation, useDelete, useGetIdentity, useInvalidate, useUpdate, type GetListResponse, type HttpError } from '@refinedev/core';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
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
import type { UsersListProps } from './users/listProps.js';
import type { UserAction } from './users/rowActions.js';
import { UserCards } from './users/UserCards.js';
import { UserHistoryDialog } from './users/UserHistoryDialog.js';
import { UsersToolbar } from './users/UsersToolbar.js';
import { exportQueryOf, useUsersGrid } from './users/useUsersGrid.js';
import { GRID_BOX_SX, SEARCH_MAX_LENGTH, type FilterName } from './users/view.js';
import './adminTexts.js';

/** The DataGrid and its code, only where the list is a table (see the page's comment). */
const UsersGrid = lazy(() => import('./users/UsersGrid.js'));

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
 *
 * Under the small breakpoint the list is cards (./users/UserCards.tsx) with the same view, selection and row
 * actions, and the DataGrid's code (the screen's largest, ./users/UsersGrid.tsx) never loads: on a phone it
 * was a table wider than the screen, and most of the screen's main-thread time (Lighthouse mobile 64 to 79).
 */
export default function UsersPage({ titleKey }: PageProps) {
  const { t } = useTranslation();
  const { localize } = useLocale();
  const navigate = useNavigate();
  const { view, show, gridProps, searchText, setSearchText } = useUsersGrid();
  // Measured on the first render, so a phone never loads the grid.
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
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

  const onAction = useCallback((action: UserAction, user: AdminUser) => {
    if (action === 'history') setHistory({ user, open: true });
    else setConfirming({ action, user });
  }, []);
  const openUser = useCallback((user: Pick<AdminUser, 'id'>) => void navigate(userPath(user)), [navigate, userPath]);

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

  const exportCsv = useCallback(async () => {
    setExporting(true);
    // Through the data provider (bearer token), as the other downloads: the CSV arrives as text.
    const csv = await read<string | null>(`/users/export${exportQueryOf(view)}`);
    if (csv !== undefined) saveFile(csv ?? '', `shapelab-users-${new Date().toISOString().slice(0, 10)}.csv`, 'text/csv;charset=utf-8');
    setExporting(false);
  }, [read, view]);
  // Stable, so the filter bar (memo) is not drawn again when the list's answer arrives.
  const filters = view.filters;
  const onFilter = useCallback((name: FilterName, value: string | undefined) => show({ filters: { ...filters, [name]: value } }), [show, filters]);
  const onClearFilters = useCallback(() => show({ filters: {} }), [show]);
  const onExport = useCallback(() => void exportCsv(), [exportCsv]);

  function runConfirmed() {
    if (!confirming) return;
    const { action, user } = confirming;
    setConfirming(null);
    if (action === 'delete') deleteUser(user);
    else changeRoles(user, action === 'promote' ? ['user', 'admin'] : ['user']);
  }

  const noRowsLabel = t(Object.keys(view.filters).length > 0 ? 'pages.users.filters.noMatch' : view.search ? 'pages.users.noMatch' : 'pages.users.empty');
  const list: UsersListProps = { noRowsLabel, selection, onSelection: setSelection, selfId: me?.id, onAction, userPath };
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
        filters={filters}
        onFilter={onFilter}
        onClear={onClearFilters}
        onExport={onExport}
        exporting={exporting}
      />
      <BulkActions count={selectedIds.length} busy={bulkMutation.isPending} onAction={setBulk} />
      {/* The list commits after the search and filters (Staggered): its first render is the screen's longest task. */}
      <Staggered>
        {phone ? (
          <UserCards {...list} rows={gridProps.rows} total={gridProps.rowCount ?? 0} loading={gridProps.loading ?? false} view={view} show={show} />
        ) : (
          <Suspense fallback={<Box sx={GRID_BOX_SX} />}>
            <UsersGrid {...list} gridProps={gridProps} onOpen={openUser} />
          </Suspense>
        )}
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
