import { useCustom } from '@refinedev/core';
import { keepPreviousData } from '@tanstack/react-query';
import type { AnalyticsResponse, Channel, CohortResponse, FirstDayResponse } from '../../../../contract/analytics.js';
import type { DataError } from '../../../../providers/dataProvider.js';
import { filtersQuery, utcDay, type AnalyticsFilters } from './filters.js';
import type { Extent } from './useAnalyticsFilters.js';

/**
 * A figures request through Refine's data provider (`custom`), only for valid filters. While new
 * filters load, the previous figures stay on screen (dimmed by the page) instead of a blank.
 */
function useFigures<T extends AnalyticsResponse | CohortResponse>(path: string, query: string | null) {
  const { query: result } = useCustom<T, DataError>({
    url: `${path}?${query ?? ''}`,
    method: 'get',
    errorNotification: false,
    queryOptions: { enabled: query !== null, placeholderData: keepPreviousData },
  });
  return {
    data: query === null ? undefined : result.data?.data,
    /** Nothing to show yet: the skeletons. */
    loading: query !== null && result.isLoading,
    /** The figures are those of earlier filters while the new ones load. */
    stale: result.isPlaceholderData,
    errorKey: result.error ? (result.error.messageKey ?? 'DEFAULT') : null,
    refetch: result.refetch,
  };
}

/** `GET /api/analytics` (admin): the series and totals of a range, for all channels or one store's. */
export function useAnalytics(filters: AnalyticsFilters | null, channel: Channel) {
  return useFigures<AnalyticsResponse>('/analytics', filters && filtersQuery(filters, channel));
}

/** `GET /api/analytics/cohorts` (admin): sign-up cohorts and their retention. */
export function useCohorts(filters: AnalyticsFilters<'week' | 'month'> | null) {
  return useFigures<CohortResponse>('/analytics/cohorts', filters && filtersQuery(filters));
}

/**
 * `GET /api/analytics/first-day` (admin): where the channel's figures start and the server's today, which
 * the default range and the presets are counted from. null while it loads; if it fails, the 12 months up
 * to this browser's today (and the error to show).
 */
export function useExtent(channel: Channel): { extent: Extent | null; errorKey: string | null } {
  const { query } = useCustom<FirstDayResponse, DataError>({
    url: `/analytics/first-day?${new URLSearchParams({ channel }).toString()}`,
    method: 'get',
    errorNotification: false,
    // Where the data starts moves rarely; a page open for a while keeps its default range.
    queryOptions: { staleTime: 10 * 60_000 },
  });
  if (query.error) return { extent: { firstDay: null, today: utcDay(new Date()) }, errorKey: query.error.messageKey ?? 'DEFAULT' };
  const data = query.data?.data;
  return { extent: data ? { firstDay: data.firstDay, today: data.today } : null, errorKey: null };
}
