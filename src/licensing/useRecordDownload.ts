import { useCallback } from 'react';
import type { Release } from '../../contract/licensing.js';
import { useReadOnly } from '../data/readOnlyView.js';
import { useOnDemandPost } from '../data/useApiAction.js';

/**
 * Spec section 7: a download is recorded on the account (the admin users list shows it). The link
 * itself downloads; the record never waits for, nor fails the download with, this call. A read-only view of
 * the account (issue 47) records nothing: it is not the customer downloading.
 */
export function useRecordDownload(): (release: Pick<Release, 'id' | 'platform'>) => void {
  const post = useOnDemandPost();
  const readOnly = useReadOnly();
  return useCallback(
    (release) => {
      if (!readOnly) post('/users/downloadedShapelab', { platform: release.platform, releaseId: release.id });
    },
    [post, readOnly],
  );
}
