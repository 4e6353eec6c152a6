import { useDataProvider } from '@refinedev/core';
import { useCallback } from 'react';
import type { Release } from '../../contract/licensing.js';

/**
 * Spec section 7: a download is recorded on the account (the admin users list shows it). The link
 * itself downloads; the record never waits for, nor fails the download with, this call.
 * A call through the data provider's `custom` on the click, as the other on-demand calls
 * (src/data/useApiAction.ts): a mutation hook set up in every render of the download box cost the home's
 * load on a phone some 16 ms of main-thread time (4x CPU, 2026-11-27) for a click most visits never make,
 * and nothing waits for, refreshes after or notifies about this call.
 */
export function useRecordDownload(): (release: Pick<Release, 'id' | 'platform'>) => void {
  const dataProvider = useDataProvider();
  return useCallback(
    (release) => {
      const { custom } = dataProvider();
      void custom?.({ url: '/users/downloadedShapelab', method: 'post', payload: { platform: release.platform, releaseId: release.id } }).catch(() => undefined);
    },
    [dataProvider],
  );
}
