import { useCallback } from 'react';
import type { Release } from '../../contract/licensing.js';
import { useOnDemandPost } from '../data/useApiAction.js';

/**
 * Spec section 7: a download is recorded on the account (the admin users list shows it). The link
 * itself downloads; the record never waits for, nor fails the download with, this call.
 */
export function useRecordDownload(): (release: Pick<Release, 'id' | 'platform'>) => void {
  const post = useOnDemandPost();
  return useCallback((release) => post('/users/downloadedShapelab', { platform: release.platform, releaseId: release.id }), [post]);
}
