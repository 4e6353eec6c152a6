import { useEffect, useMemo, useReducer, useRef } from 'react';
import { useSubscription } from '@refinedev/core';
import type { Channel } from '../../../../contract/analytics.js';
import { isAnalyticsEvent } from '../../../../providers/liveProvider.js';
import type { AnalyticsFilters } from './filters.js';
import { liveCounts, liveReducer, liveScope, NO_LIVE, type LiveCounts } from './live.js';

/** Reports arrive in bursts (a desktop client sends its sessions and exports together): one refetch per burst. */
export const LIVE_REFETCH_DELAY_MS = 1000;

/**
 * The dashboard's live counters (./live.ts): the desktop reports announced on the event stream since
 * the figures were fetched, and a refetch a second after a burst of them so the charts follow too.
 */
export function useLiveCounters(filters: AnalyticsFilters | null, channel: Channel, refetch: () => Promise<{ isError: boolean }>): LiveCounts {
  const [state, dispatch] = useReducer(liveReducer, NO_LIVE);
  const scope = useMemo(() => filters && liveScope(filters, channel), [filters, channel]);
  const seq = useRef(state.seq);
  seq.current = state.seq;
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // New filters fetch figures of their own, which hold every report so far.
  useEffect(() => {
    dispatch({ type: 'reset' });
  }, [scope]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const onReport = useRef<(payload: unknown) => void>(() => undefined);
  onReport.current = (payload) => {
    if (!scope || !isAnalyticsEvent(payload)) return;
    const event = payload;
    dispatch({ type: 'event', event, scope });
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      // Read when the refetch starts: the figures it brings hold the events counted up to here.
      const upTo = seq.current;
      void refetch().then((result) => {
        if (!result.isError) dispatch({ type: 'settled', seq: upTo });
      });
    }, LIVE_REFETCH_DELAY_MS);
  };
  // The live provider's analytics channel (providers/liveProvider.ts): one event per batch of desktop reports.
  useSubscription({
    channel: 'resources/analytics',
    types: ['created'],
    enabled: scope !== null,
    onLiveEvent: (event) => onReport.current(event.payload),
  });

  return useMemo(() => liveCounts(state), [state]);
}
