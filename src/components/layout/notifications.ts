import type { NotificationProvider } from '@refinedev/core';
import { useNotificationProvider } from '@refinedev/mui';

/**
 * Refine's MUI notifications (notistack snackbars), with one rule of ours: a notification with a single
 * text shows it as its title. Pages name a success in one sentence; a failure comes with Refine's
 * title and the server's messageKey text (the data provider translates it) as the description.
 */
export function useNotifications(): NotificationProvider {
  const mui = useNotificationProvider();
  return {
    open: (params) => mui.open(params.description ? params : { ...params, message: '', description: params.message }),
    close: (key) => mui.close(key),
  };
}
