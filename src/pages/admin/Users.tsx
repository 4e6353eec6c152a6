import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import { DataGrid } from '@mui/x-data-grid';
import { deDE } from '@mui/x-data-grid/locales';
import { useDelete, useGetIdentity, useUpdate, type GetListResponse, type HttpError } from '@refinedev/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminUser, Me, Role } from '../../../contract/users.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { useLocale } from '../../components/LocaleScope.js';
import { PageCard } from '../../components/PageCard.js';
import type { PageProps } from '../index.js';
import { userColumns, type UserAction } from './users/columns.js';
import { UserHistoryDialog } from './users/UserHistoryDialog.js';
import { useUsersGrid } from './users/useUsersGrid.js';
import { PAGE_SIZES, SEARCH_MAX_LENGTH } from './users/view.js';

/**
 * The grid renders rows only near the viewport but all twelve columns, even those scrolled out of view:
 * few enough to cost little, and the manage column stays reachable by keyboard and assistive technology.
 */
const COLUMN_BUFFER_PX = 4000;

type Confirmation = { action: Exclude<UserAction, 'history'>; user: AdminUser };
type Done = { key: 'promoted' | 'demoted' | 'deleted'; email: string };

/** The row as it looks with `roles` (the admin column follows the roles). */
function withRoles(user: AdminUser, roles: Role[]): AdminUser {
  return { ...user, roles, isAdmin: roles.includes('admin') };
}

/**
 * `/admin/users` (spec sections 2 and 6): everyone's account, paged, sorted and searched on the server,
 * the view kept in the address (./users/useUsersGrid.ts). Role changes and deletions are confirmed first,
 * show at once (optimistic) and are rolled back with the server's reason when it refuses. A row's
 * history shows its audit trail.
 */
export default function UsersPage({ titleKey }: PageProps) {
  const { t } = useTranslation();
  const { language } = useLocale();
  const { view, gridProps, searchText, setSearchText } = useUsersGrid();
  const { data: me } = useGetIdentity<Me>();

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
      }),
    [t, language, me?.id],
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
      noRowsLabel: t(view.search ? 'pages.users.noMatch' : 'pages.users.empty'),
    }),
    [language, t, view.search],
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
      {/* Issue 20 item 10: the grid scrolls inside its own box; minWidth 0 lets the box shrink to a phone's width. */}
      <Box sx={{ height: 'max(420px, calc(100vh - 320px))', width: '100%', minWidth: 0, overflowX: 'auto' }}>
        <DataGrid
          {...gridProps}
          columns={columns}
          pageSizeOptions={PAGE_SIZES}
          disableColumnFilter
          columnBufferPx={COLUMN_BUFFER_PX}
          localeText={localeText}
          aria-label={t('pages.users.tableLabel')}
        />
      </Box>
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
      <UserHistoryDialog
        user={history.user}
        open={history.open}
        onClose={() => setHistory((current) => ({ ...current, open: false }))}
        onExited={() => setHistory({ user: null, open: false })}
      />
    </PageCard>
  );
}
