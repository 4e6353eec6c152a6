import { useCallback, useEffect, useMemo, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import type { Granularity } from '../../../../contract/analytics.js';
import { SEARCH_DELAY_MS } from '../../../components/search.js';
import { readFilterInput, utcDay, validateFilters, writeFilterInput, type AnalyticsFilters, type FilterInput, type FilterOptions } from './filters.js';

/** Marks the address changes the filter bar makes itself (see below). */
const FROM_FILTER_BAR = { filterBar: true };

/**
 * The filter bar's state, kept in the address (./filters.ts). The fields hold their own copy: the
 * router applies address changes in a transition, a beat after the key press, and a field bound to the
 * address alone would lose keys typed in between. An address change from elsewhere (the menu link back
 * to the plain page, a pasted link) replaces what the fields hold.
 *
 * `filters` is what to ask the API for: null while an entry is invalid (no request is sent), and
 * following typing once it pauses.
 */
export function useAnalyticsFilters<G extends Granularity>(options: FilterOptions<G>) {
  const [searchParams, setSearchParams] = useSearchParams();
  const location = useLocation();
  // The default range ends today (UTC) as of opening the page; a page left open over midnight keeps its range.
  const [today] = useState(() => utcDay(new Date()));
  const fromAddress = useMemo(() => readFilterInput(searchParams, today, options), [searchParams, today, options]);
  const [input, setInput] = useState(fromAddress);
  const ownChange = (location.state as typeof FROM_FILTER_BAR | null)?.filterBar === true;

  useEffect(() => {
    if (!ownChange) setInput(fromAddress);
  }, [fromAddress, ownChange]);

  const change = useCallback(
    (patch: Partial<FilterInput<G>>) => {
      const next = { ...input, ...patch };
      setInput(next);
      setSearchParams((current) => writeFilterInput(current, next, today, options), { replace: true, state: FROM_FILTER_BAR });
    },
    [input, setSearchParams, today, options],
  );

  const { filters, problems } = useMemo(() => validateFilters(input), [input]);
  const applied = useSettled(filters);
  return { input, change, problems, filters: filters && applied };
}

/** `filters` once they have stayed the same for SEARCH_DELAY_MS (null at once: nothing to wait for). */
function useSettled<G extends Granularity>(filters: AnalyticsFilters<G> | null): AnalyticsFilters<G> | null {
  const [settled, setSettled] = useState(filters);
  const key = JSON.stringify(filters);
  const settledKey = JSON.stringify(settled);
  useEffect(() => {
    if (key === settledKey) return undefined;
    const timer = setTimeout(() => setSettled(JSON.parse(key) as AnalyticsFilters<G> | null), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [key, settledKey]);
  return settled;
}
