import { useCustomMutation, useDelete, useInvalidate, useUpdate, type GetListResponse, type HttpError } from '@refinedev/core';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminUser, BulkUserAction, BulkUsersResponse, Role } from '../../../../contract/users.js';
import type { DataError } from '../../../../providers/dataProvider.js';
import { errorText } from '../../../../providers/errors.js';
import { ConfirmDialog } from '../../../components/ConfirmDialog.js';
import { BulkActions } from './BulkActions.js';
import { RolesDialog } from './RolesDialog.js';
import type { UserAction } from './rowActions.js';
import type { StaffPowers } from './useStaffPowers.js';

/** A row's change waiting for the admin's confirmation. */
export type Confirmation = { action: Exclude<UserAction, 'history'>; user: AdminUser };
type Done = 'promoted' | 'demoted' | 'rolesChanged' | 'deleted';

/** The row as it looks with `roles` (the admin column follows the roles). */
function withRoles(user: AdminUser, roles: Role[]): AdminUser {
  return { ...user, roles, isAdmin: roles.includes('admin') };
}

export interface UserActionsProps {
  /** The rows selected in the list, for the bulk actions. */
  selectedIds: string[];
  /** A bulk change has settled: the selection is over. */
  onBulkSettled: () => void;
  /** A row's change the list asked for, to be confirmed. */
  confirming: Confirmation | null;
  onConfirming: (confirming: Confirmation | null) => void;
  /** Issue 47: which bulk actions the staff member may take. */
  allowed: StaffPowers;
  /** The signed-in admin (their own admin role is not offered for removal). */
  selfId: string | undefined;
}

/**
 * The changes an admin makes from the users list (issue 21): role changes and deletions of a row, and the
 * bulk actions over the selected rows, each after a confirmation. They show at once (optimistic) and are
 * rolled back with the server's reason when it refuses.
 *
 * A component of its own, not part of the page's body: React cannot cut one component's render, and the
 * page's, with these three mutation hooks beside the list's hook, was one task of 51 ms on Lighthouse's phone
 * at 4x CPU (bench:profile); the page's alone is 39 to 44 ms, and these render as a piece of their own. It
 * is drawn again only when the selection or the confirmation changes, not with every answer of the list.
 */
export const UserActions = memo(function UserActions({ selectedIds, onBulkSettled, confirming, onConfirming, allowed, selfId }: UserActionsProps) {
  const { t } = useTranslation();
  const [bulk, setBulk] = useState<BulkUserAction | null>(null);
  const { mutate: runBulk, mutation: bulkMutation } = useCustomMutation<BulkUsersResponse, DataError>();
  const invalidate = useInvalidate();
  const { mutate: update } = useUpdate<AdminUser, HttpError, { roles: Role[] }>();
  const { mutate: remove } = useDelete<AdminUser>();

  const notice = (key: Done, email: string) => ({ type: 'success' as const, message: t(`pages.users.done.${key}`, { email }) });
  // The server's reason (the data provider's translated messageKey), after the optimistic change is rolled back.
  const refused = (error?: HttpError) => ({ type: 'error' as const, message: errorText(t, error) });

  function changeRoles(user: AdminUser, roles: Role[], done: Done = roles.includes('admin') ? 'promoted' : 'demoted') {
    update({
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
      successNotification: () => notice(done, user.email),
      errorNotification: refused,
    });
  }

  function deleteUser(user: AdminUser) {
    remove({ resource: 'users', id: user.id, mutationMode: 'optimistic', successNotification: () => notice('deleted', user.email), errorNotification: refused });
  }

  function runConfirmed() {
    if (!confirming || confirming.action === 'roles') return;
    const { action, user } = confirming;
    onConfirming(null);
    if (action === 'delete') deleteUser(user);
    // The admin role alone is granted or taken; the account's other roles (support, analyst) stay.
    else changeRoles(user, action === 'promote' ? [...user.roles, 'admin'] : user.roles.filter((role) => role !== 'admin'));
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
          const reasons = [...new Set(result.skipped.map((skip) => errorText(t, skip.messageKey)))].join(' ');
          const changed = t('pages.users.bulk.done', { count: result.done.length });
          const left = result.skipped.length > 0 ? ` ${t('pages.users.bulk.skipped', { count: result.skipped.length, reasons })}` : '';
          return { type: result.skipped.length > 0 ? 'error' : 'success', message: `${changed}${left}` };
        },
        errorNotification: refused,
      },
      {
        onSettled: () => {
          onBulkSettled();
          void invalidate({ resource: 'users', invalidates: ['list'] });
        },
      },
    );
  }

  const roles = confirming?.action === 'roles' ? confirming : null;
  const asked = confirming?.action === 'roles' ? null : confirming;
  const confirmTexts = asked && {
    title: t(`pages.users.confirm.${asked.action}.title`, { email: asked.user.email }),
    text: t(`pages.users.confirm.${asked.action}.text`, { email: asked.user.email }),
    confirm: t(`pages.users.confirm.${asked.action}.confirm`),
  };

  return (
    <>
      <BulkActions count={selectedIds.length} busy={bulkMutation.isPending} onAction={setBulk} allowed={allowed} />
      <RolesDialog
        user={roles?.user ?? null}
        selfId={selfId}
        onCancel={() => onConfirming(null)}
        onConfirm={(chosen) => {
          if (!roles) return;
          onConfirming(null);
          changeRoles(roles.user, chosen, 'rolesChanged');
        }}
      />
      <ConfirmDialog
        open={asked !== null}
        title={confirmTexts?.title ?? ''}
        confirmLabel={confirmTexts?.confirm ?? ''}
        cancelLabel={t('pages.users.cancel')}
        destructive={asked?.action !== 'promote'}
        onCancel={() => onConfirming(null)}
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
    </>
  );
});
