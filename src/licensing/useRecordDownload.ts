import { useCustomMutation } from '@refinedev/core';
import { useCallback } from 'react';
import type { Release } from '../../contract/licensing.js';

/**
 * Spec section 7: a download is recorded on the account (the admin users list shows it). The link
 * itself downloads; the record never waits for, nor fails the download with, this call.
 */
export function useRecordDownload(): (release: Pick<Release, 'id' | 'platform'>) => void {
  const { mutate } = useCustomMutation();
  return useCallback(
    (release) =>
      mutate({
        url: '/users/downloadedShapelab',
        method: 'post',
        values: { platform: release.platform, releaseId: release.id },
        errorNotification: false,
        successNotification: false,
      }),
    [mutate],
  );
}
