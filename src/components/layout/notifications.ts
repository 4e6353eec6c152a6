import type { NotificationProvider } from '@refinedev/core';
import { useNotificationProvider } from '@refinedev/mui';
import { closeSuccess, showSuccess } from './successNotice.js';

/**
 * Refine's notifications. A success is shown above the page, in its flow (SuccessNotice.tsx: a snackbar
 * covered the buttons under it on a phone, issue 48 item 7); a failure or an undoable change is Refine's MUI
 * snackbar (notistack), over any dialog it came from. One rule of ours for the snackbars: a notification
 * with a single text shows it as its title. Pages name a success in one sentence; a failure comes with
 * Refine's title and the server's messageKey text (the data provider translates it) as the description.
 */
export function useNotifications(): NotificationProvider {
  const mui = useNotificationProvider();
  return {
    open: (params) => {
      if (params.type === 'success') {
        showSuccess({ key: params.key, title: params.message, description: params.description });
        return;
      }
      mui.open(params.description ? params : { ...params, message: '', description: params.message });
    },
    close: (key) => {
      closeSuccess(key);
      mui.close(key);
    },
  };
}
