import Box from '@mui/material/Box';
import type { Theme } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { GridRowSelectionModel } from '@mui/x-data-grid';
import { useGetIdentity } from '@refinedev/core';
import { Fragment, lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { AdminUser, Me } from '../../../contract/users.js';
import { saveFile } from '../../components/csv.js';
import { useLocale } from '../../components/LocaleScope.js';
import { PageCard } from '../../components/PageCard.js';
import { Staggered } from '../../components/Staggered.js';
import { useOnDemandRead } from '../../data/useApiAction.js';
import type { PageProps } from '../index.js';
import type { UsersListProps } from './users/listProps.js';
import type { UserAction } from './users/rowActions.js';
import { UserActions, type Confirmation } from './users/UserActions.js';
import { UserCards } from './users/UserCards.js';
import { UserHistoryDialog } from './users/UserHistoryDialog.js';
import { UsersToolbar } from './users/UsersToolbar.js';
import { useStaffPowers } from './users/useStaffPowers.js';
import { exportQueryOf, useUsersGrid } from './users/useUsersGrid.js';
import { GRID_BOX_SX, SEARCH_MAX_LENGTH, type FilterName } from './users/view.js';
import './adminTexts.js';
import { paths } from '../../routing/paths.js';

/** The DataGrid and its code, only where the list is a table (see the page's comment). */
const UsersGrid = lazy(() => import('./users/UsersGrid.js'));

const NOTHING_SELECTED: GridRowSelectionModel = { type: 'include', ids: new Set() };

/**
 * `/admin/users` (spec sections 2 and 6, issue 21): everyone's account, paged, sorted, searched and
 * filtered on the server, the view kept in the address (./users/useUsersGrid.ts). A row opens the user's
 * page. Role changes and deletions of a row or of the selected rows are confirmed first, show at once and
 * are rolled back with the server's reason when it refuses (./users/UserActions.tsx). A row's history shows
 * its audit trail, and the list (every page) can be exported as CSV.
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
  // Issue 47: support opens accounts and their history; roles, deletions, bulk actions and exports are admins'.
  const allowed = useStaffPowers();
  const userPath = useCallback((user: Pick<AdminUser, 'id'>) => localize(paths.userShow(user.id)), [localize]);

  // Selection belongs to the rows on screen: a new page, order, search or filter starts without one.
  const [selection, setSelection] = useState<GridRowSelectionModel>(NOTHING_SELECTED);
  const clearSelection = useCallback(() => setSelection(NOTHING_SELECTED), []);
  const viewKey = JSON.stringify(view);
  useEffect(() => clearSelection(), [viewKey, clearSelection]);
  // The same array until the selection changes, so the actions (memo) are not drawn again with the rows.
  const selectedIds = useMemo(() => [...selection.ids].map(String), [selection]);
  const read = useOnDemandRead();
  const [exporting, setExporting] = useState(false);

  const [confirming, setConfirming] = useState<Confirmation | null>(null);
  const [history, setHistory] = useState<{ user: AdminUser | null; open: boolean }>({ user: null, open: false });

  const onAction = useCallback((action: UserAction, user: AdminUser) => {
    if (action === 'history') setHistory({ user, open: true });
    else setConfirming({ action, user });
  }, []);
  const openUser = useCallback((user: Pick<AdminUser, 'id'>) => void navigate(userPath(user)), [navigate, userPath]);

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

  const noRowsLabel = t(Object.keys(view.filters).length > 0 ? 'pages.users.filters.noMatch' : view.search ? 'pages.users.noMatch' : 'pages.users.empty');
  const list: UsersListProps = { noRowsLabel, selection, onSelection: setSelection, selfId: me?.id, onAction, userPath, allowed };

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
      {/* The filters, then the list with its actions, each in a commit of its own after the search box
          (Staggered): one commit of all of them was the longest task after a phone's first paint. */}
      <Staggered>
        <UsersToolbar key="filters" filters={filters} onFilter={onFilter} onClear={onClearFilters} onExport={allowed.export ? onExport : null} exporting={exporting} />
        <Fragment key="list">
          <UserActions selectedIds={selectedIds} onBulkSettled={clearSelection} confirming={confirming} onConfirming={setConfirming} allowed={allowed} selfId={me?.id} />
          {phone ? (
            <UserCards {...list} rows={gridProps.rows} total={gridProps.rowCount ?? 0} loading={gridProps.loading ?? false} view={view} show={show} />
          ) : (
            <Suspense fallback={<Box sx={GRID_BOX_SX} />}>
              <UsersGrid {...list} gridProps={gridProps} onOpen={openUser} />
            </Suspense>
          )}
        </Fragment>
      </Staggered>
      <UserHistoryDialog
        user={history.user}
        open={history.open}
        onClose={() => setHistory((current) => ({ ...current, open: false }))}
        onExited={() => setHistory({ user: null, open: false })}
      />
    </PageCard>
  );
}
