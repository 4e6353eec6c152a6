import { useCallback, useEffect, useMemo, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import type { FirstDayResponse, Granularity } from '../../../../contract/analytics.js';
import { SEARCH_DELAY_MS } from '../../../components/search.js';
import {
  defaultInput,
  presetOf,
  presetRange,
  readFilterInput,
  validateFilters,
  writeFilterInput,
  type AnalyticsFilters,
  type FilterInput,
  type FilterOptions,
  type RangePreset,
} from './filters.js';

/** Marks the address changes the filter bar makes itself (see below). */
const FROM_FILTER_BAR = { filterBar: true };

/** Where the figures start and today, both by the server (GET /analytics/first-day). */
export type Extent = Pick<FirstDayResponse, 'firstDay' | 'today'>;

/**
 * The filter bar's state, kept in the address (./filters.ts). The fields hold their own copy: the
 * router applies address changes in a transition, a beat after the key press, and a field bound to the
 * address alone would lose keys typed in between. An address change from elsewhere (the menu link back
 * to the plain page, a pasted link) replaces what the fields hold.
 *
 * `filters` is what to ask the API for, following typing once it pauses. A wrong entry (issue 21 item
 * 3: minimum above maximum, start after end) is named under its field and changes nothing else: the
 * figures stay those of the last valid filters, and the address keeps them too, so a reload or a shared
 * link never carries a wrong entry.
 */
export function useAnalyticsFilters<G extends Granularity>(options: FilterOptions<G>, { firstDay, today }: Extent) {
  const [searchParams, setSearchParams] = useSearchParams();
  const location = useLocation();
  const fromAddress = useMemo(() => readFilterInput(searchParams, today, options, firstDay), [searchParams, today, options, firstDay]);
  const [input, setInput] = useState(fromAddress);
  const ownChange = (location.state as typeof FROM_FILTER_BAR | null)?.filterBar === true;

  useEffect(() => {
    if (!ownChange) setInput(fromAddress);
  }, [fromAddress, ownChange]);

  const change = useCallback(
    (patch: Partial<FilterInput<G>>) => {
      const next = { ...input, ...patch };
      setInput(next);
      if (validateFilters(next).filters) {
        setSearchParams((current) => writeFilterInput(current, next, today, options, firstDay), { replace: true, state: FROM_FILTER_BAR });
      }
    },
    [input, setSearchParams, today, options, firstDay],
  );
  const pickPreset = useCallback((preset: RangePreset) => change(presetRange(preset, today, firstDay)), [change, today, firstDay]);

  const { filters, problems } = useMemo(() => validateFilters(input), [input]);
  const lastGood = useLastGood(filters, () => validateFilters(defaultInput(today, options, firstDay)).filters);
  const applied = useSettled(lastGood);
  return { input, change, problems, filters: applied, preset: presetOf(input, today, firstDay), pickPreset };
}

/**
 * `filters` while valid, else the last valid ones (at first, those of `fallback`: a hand-edited link
 * with a wrong entry still shows the default figures beside its marked field).
 */
function useLastGood<G extends Granularity>(filters: AnalyticsFilters<G> | null, fallback: () => AnalyticsFilters<G> | null): AnalyticsFilters<G> | null {
  const [lastGood, setLastGood] = useState(() => filters ?? fallback());
  const key = JSON.stringify(filters);
  useEffect(() => {
    if (filters) setLastGood(filters);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by value: a new object of the same filters changes nothing
  }, [key]);
  return filters ?? lastGood;
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
