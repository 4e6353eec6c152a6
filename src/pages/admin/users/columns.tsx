import AdminPanelSettings from '@mui/icons-material/AdminPanelSettingsOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import History from '@mui/icons-material/History';
import RemoveModerator from '@mui/icons-material/RemoveModeratorOutlined';
import { GridActionsCellItem, type GridColDef } from '@mui/x-data-grid';
import type { TFunction } from 'i18next';
import type { ReactElement } from 'react';
import type { AdminUser, UserSortField } from '../../../../contract/users.js';
import { formatDate, formatDateTime } from '../../../format/index.js';

/** What the manage column asks the page to do with a row. */
export type UserAction = 'promote' | 'demote' | 'delete' | 'history';

export interface UserColumnsOptions {
  t: TFunction;
  language: string;
  /** The signed-in admin: their own row cannot be demoted or deleted (the server refuses it too). */
  selfId: string | undefined;
  onAction: (action: UserAction, user: AdminUser) => void;
}

/**
 * The users table of spec section 2: first name, last name, email, verified, Google connected, Facebook
 * connected, subscribed news, registered on, downloaded, last launched, admin, manage. Every data column
 * is a sort field of the API (USER_SORT_FIELDS), so the grid sorts on the server by column name.
 */
export function userColumns({ t, language, selfId, onAction }: UserColumnsOptions): GridColDef<AdminUser>[] {
  const date = (value: string) => formatDate(value, language);
  const dateTime = (value: string) => formatDateTime(value, language);
  const never = t('pages.users.never');
  const header = (field: UserSortField) => t(`pages.users.columns.${field}`);
  const text = (field: 'firstName' | 'lastName' | 'email', minWidth: number, flex: number): GridColDef<AdminUser> => ({
    field,
    headerName: header(field),
    minWidth,
    flex,
  });
  const flag = (field: 'emailVerified' | 'googleConnected' | 'facebookConnected' | 'newsletter' | 'isAdmin', minWidth = 110): GridColDef<AdminUser> => ({
    field,
    headerName: header(field),
    type: 'boolean',
    minWidth,
  });
  const when = (field: 'createdAt' | 'downloadedAt' | 'lastLaunchedAt', format: (value: string) => string): GridColDef<AdminUser> => ({
    field,
    headerName: header(field),
    minWidth: format === dateTime ? 180 : 150,
    valueFormatter: (value: string | null) => (value ? format(value) : never),
  });

  return [
    text('firstName', 130, 1),
    text('lastName', 130, 1),
    text('email', 220, 1.6),
    flag('emailVerified'),
    flag('googleConnected', 160),
    flag('facebookConnected', 170),
    flag('newsletter', 130),
    when('createdAt', date),
    when('downloadedAt', date),
    when('lastLaunchedAt', dateTime),
    flag('isAdmin'),
    {
      field: 'manage',
      type: 'actions',
      headerName: t('pages.users.columns.manage'),
      minWidth: 140,
      getActions: ({ row }) => {
        const self = row.id === selfId;
        const item = (action: UserAction, icon: ReactElement, label: string, disabled = false) => (
          <GridActionsCellItem
            key={action}
            icon={icon}
            label={label}
            title={label}
            disabled={disabled}
            onClick={() => onAction(action, row)}
          />
        );
        const roleAction = row.isAdmin
          ? item('demote', <RemoveModerator />, t(self ? 'pages.users.cannotDemoteSelf' : 'pages.users.demoteLabel', { email: row.email }), self)
          : item('promote', <AdminPanelSettings />, t('pages.users.promoteLabel', { email: row.email }));
        return [
          roleAction,
          item('delete', <DeleteOutline color={self ? 'inherit' : 'error'} />, t(self ? 'pages.users.cannotDeleteSelf' : 'pages.users.deleteLabel', { email: row.email }), self),
          item('history', <History />, t('pages.users.historyLabel', { email: row.email })),
        ];
      },
    },
  ];
}
