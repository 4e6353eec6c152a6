import { useCustomMutation, useInvalidate, useUpdate, type HttpError } from '@refinedev/core';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { ViewAsResponse } from '../../../../contract/admin-actions.js';
import type { AdminUser } from '../../../../contract/users.js';
import type { DataError } from '../../../../providers/dataProvider.js';
import { errorText } from '../../../../providers/errors.js';
import { useLocale } from '../../../components/LocaleScope.js';
import { SESSION_QUERY_KEYS } from '../../../routing/guard.js';
import { paths } from '../../../routing/paths.js';
import { requestOf, textKeyOf, type UserAction } from './actions.js';

/** The timeline's Refine resource: the activity path under the user (the data provider's REST rule). */
export const activityResource = (userId: string) => `users/${encodeURIComponent(userId)}/activity`;

/**
 * Runs a confirmed action through Refine (a role change is an update of the `users` record, the others
 * custom calls), shows its outcome with the notification provider, and reads the user and their timeline
 * again afterwards, also after a refusal (another admin, or the customer, may have acted meanwhile).
 */
export function useUserActions(user: Pick<AdminUser, 'id' | 'email'>) {
  const { t } = useTranslation();
  const { localize } = useLocale();
  const invalidate = useInvalidate();
  const { mutate: call, mutation: calling } = useCustomMutation<object, DataError>();
  const { mutate: update, mutation: updating } = useUpdate<AdminUser, HttpError, { roles: AdminUser['roles'] }>();

  const refresh = useCallback(() => {
    void invalidate({ resource: 'users', id: user.id, invalidates: ['detail', 'list'] });
    void invalidate({ resource: activityResource(user.id), invalidates: ['resourceAll'] });
  }, [invalidate, user.id]);

  const run = useCallback(
    (action: UserAction, onDone: () => void) => {
      const key = textKeyOf(action);
      const successNotification = () => ({ type: 'success' as const, message: t(`adminUser:actions.${key}.done`, { email: user.email }) });
      const errorNotification = (error?: HttpError | DataError) => ({ type: 'error' as const, message: errorText(t, error) });
      const onSettled = () => {
        refresh();
        onDone();
      };
      if (action.kind === 'roles' || action.kind === 'setRoles') {
        update({ resource: 'users', id: user.id, values: { roles: action.roles }, successNotification, errorNotification }, { onSettled });
        return;
      }
      if (action.kind === 'viewAs') {
        // Issue 47: the view opens in a tab of its own, opened in this click (one opened once the answer is in
        // would be a pop-up the browser blocks), with the view's token in its address (src/main.tsx takes it).
        const tab = window.open('', '_blank');
        call(
          { ...requestOf(user.id, action), successNotification, errorNotification },
          {
            onSuccess: ({ data }) => {
              if (!tab) return;
              tab.opener = null;
              tab.location.href = `${localize(paths.home)}?${SESSION_QUERY_KEYS.view}=${encodeURIComponent((data as ViewAsResponse).access_token)}`;
            },
            onError: () => tab?.close(),
            onSettled,
          },
        );
        return;
      }
      const { url, method, values } = requestOf(user.id, action);
      call({ url, method, values, successNotification, errorNotification }, { onSettled });
    },
    [call, localize, refresh, t, update, user.email, user.id],
  );

  return { run, busy: calling.isPending || updating.isPending };
}
