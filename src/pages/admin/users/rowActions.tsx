import AdminPanelSettings from '@mui/icons-material/AdminPanelSettingsOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import History from '@mui/icons-material/History';
import ManageAccounts from '@mui/icons-material/ManageAccountsOutlined';
import RemoveModerator from '@mui/icons-material/RemoveModeratorOutlined';
import type { TFunction } from 'i18next';
import type { ReactElement } from 'react';
import type { AdminUser } from '../../../../contract/users.js';
import type { StaffPowers } from './useStaffPowers.js';

/** What a row's menu asks the page to do with its user ('roles': the staff roles, issue 47). */
export type UserAction = 'promote' | 'demote' | 'roles' | 'delete' | 'history';

export interface RowAction {
  action: UserAction;
  icon: ReactElement;
  /** Names the user: the item is read out of context by assistive technology. */
  label: string;
  disabled: boolean;
}

/**
 * A user's actions, as the grid's manage column and the phone's cards both offer them: the admin role's
 * change that applies, the staff roles, deletion, and the history, each only when the signed-in staff
 * member may (issue 47: support sees the history alone). The signed-in admin's own row cannot be demoted or
 * deleted (the server refuses it too); those items stay, disabled, and say why.
 */
export function rowActionsOf(row: AdminUser, selfId: string | undefined, t: TFunction, allowed: Pick<StaffPowers, 'roles' | 'delete' | 'audit'>): RowAction[] {
  const self = row.id === selfId;
  const roleAction: RowAction = row.isAdmin
    ? { action: 'demote', icon: <RemoveModerator />, label: t(self ? 'pages.users.cannotDemoteSelf' : 'pages.users.demoteLabel', { email: row.email }), disabled: self }
    : { action: 'promote', icon: <AdminPanelSettings />, label: t('pages.users.promoteLabel', { email: row.email }), disabled: false };
  const actions: (RowAction | false)[] = [
    allowed.roles && roleAction,
    allowed.roles && { action: 'roles', icon: <ManageAccounts />, label: t('pages.users.rolesLabelOf', { email: row.email }), disabled: false },
    allowed.delete && {
      action: 'delete',
      icon: <DeleteOutline color={self ? 'inherit' : 'error'} />,
      label: t(self ? 'pages.users.cannotDeleteSelf' : 'pages.users.deleteLabel', { email: row.email }),
      disabled: self,
    },
    allowed.audit && { action: 'history', icon: <History />, label: t('pages.users.historyLabel', { email: row.email }), disabled: false },
  ];
  return actions.filter((action): action is RowAction => action !== false);
}
