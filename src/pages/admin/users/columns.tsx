import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import { GridActionsCellItem, type GridColDef, type GridColumnVisibilityModel } from '@mui/x-data-grid';
import type { TFunction } from 'i18next';
import { Link as RouterLink } from 'react-router';
import Stack from '@mui/material/Stack';
import { STAFF_ROLES } from '../../../../contract/roles.js';
import type { AdminUser, UserSortField } from '../../../../contract/users.js';
import { formatDate, formatDateTime } from '../../../format/index.js';
import { rowActionsOf, type UserAction } from './rowActions.js';
import type { StaffPowers } from './useStaffPowers.js';

export interface UserColumnsOptions {
  t: TFunction;
  language: string;
  /** The signed-in admin: their own row cannot be demoted or deleted (the server refuses it too). */
  selfId: string | undefined;
  onAction: (action: UserAction, user: AdminUser) => void;
  /** The address of a user's page (/{locale}/admin/users/{id}). */
  userPath: (user: AdminUser) => string;
  /** Issue 47: what the signed-in staff member may do to a row. */
  allowed: StaffPowers;
}

/**
 * Issue 21: the columns support reads first are shown; the rest start hidden, and the column menu
 * (Manage columns) shows them. Hidden columns still sort on the server once shown.
 */
export const HIDDEN_BY_DEFAULT: GridColumnVisibilityModel = {
  googleConnected: false,
  facebookConnected: false,
  newsletter: false,
  downloadedAt: false,
  lastLaunchedAt: false,
};

/**
 * The users table of spec section 2: first name, last name, email, verified, Google connected, Facebook
 * connected, subscribed news, registered on, downloaded, last launched, admin, manage; and the plan
 * (issue 21). Every data column but the plan is a sort field of the API (USER_SORT_FIELDS), so the grid
 * sorts on the server by column name. The row's menu comes first (issue 48 item 2: the grid scrolls sideways
 * and MUI X's free grid pins no column, so the actions are where no scrolling is needed), then names, email
 * and registration, wide enough to read at 1280 px; the email links to the user's page.
 */
export function userColumns({ t, language, selfId, onAction, userPath, allowed }: UserColumnsOptions): GridColDef<AdminUser>[] {
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
    {
      field: 'manage',
      type: 'actions',
      headerName: t('pages.users.columns.manage'),
      width: 90,
      getActions: ({ row }) =>
        rowActionsOf(row, selfId, t, allowed).map(({ action, icon, label, disabled }) => (
          <GridActionsCellItem key={action} icon={icon} label={label} aria-label={label} disabled={disabled} showInMenu onClick={() => onAction(action, row)} />
        )),
    },
    text('firstName', 120, 0.8),
    text('lastName', 120, 0.8),
    {
      ...text('email', 260, 1.8),
      renderCell: ({ row }) => (
        <>
          <Link component={RouterLink} to={userPath(row)} underline="hover" onClick={(event) => event.stopPropagation()}>
            {row.email}
          </Link>
          {/* Issue 46 item 9: a bank took one of this user's payments back. */}
          {row.chargeback && <Chip size="small" color="error" variant="outlined" label={t('pages.users.chargeback')} sx={{ ml: 1 }} data-testid="user-chargeback" />}
        </>
      ),
    },
    when('createdAt', date),
    flag('emailVerified'),
    flag('isAdmin', 90),
    {
      // Issue 47: staff accounts are marked with their staff roles (the admin column sorts by one of them).
      field: 'staffRoles',
      headerName: t('pages.users.columns.staffRoles'),
      minWidth: 150,
      sortable: false,
      valueGetter: (_value, row) => STAFF_ROLES.filter((role) => row.roles.includes(role)).join(' '),
      renderCell: ({ row }) => (
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', height: '100%' }}>
          {STAFF_ROLES.filter((role) => row.roles.includes(role)).map((role) => (
            <Chip key={role} size="small" variant="outlined" color={role === 'admin' ? 'secondary' : 'default'} label={t(`pages.users.roles.${role}`)} />
          ))}
        </Stack>
      ),
    },
    {
      field: 'plan',
      headerName: t('pages.users.columns.plan'),
      minWidth: 130,
      sortable: false,
      valueFormatter: (value: AdminUser['plan']) => t(`pages.users.plans.${value}`),
    },
    flag('googleConnected', 160),
    flag('facebookConnected', 170),
    flag('newsletter', 130),
    when('downloadedAt', date),
    when('lastLaunchedAt', dateTime),
  ];
}
