import { zodResolver } from '@hookform/resolvers/zod';
import { useCallback, useEffect, useState } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { useLocation, useSearchParams } from 'react-router';
import { analyticsFilterFormSchema } from '../../../../contract/analytics-form.js';
import type { FirstDayResponse, Granularity } from '../../../../contract/analytics.js';
import { SEARCH_DELAY_MS } from '../../../components/search.js';
import {
  defaultInput,
  FILTER_FIELDS,
  presetOf,
  presetRange,
  readFilterInput,
  validateFilters,
  writeFilterInput,
  type AnalyticsFilters,
  type FilterInput,
  type FilterOptions,
  type FilterProblem,
  type FilterProblems,
  type RangePreset,
} from './filters.js';

/** Marks the address changes the filter bar makes itself (see below). */
const FROM_FILTER_BAR = { filterBar: true };

/** Where the figures start and today, both by the server (GET /analytics/first-day). */
export type Extent = Pick<FirstDayResponse, 'firstDay' | 'today'>;

const resolver = zodResolver(analyticsFilterFormSchema);

/**
 * The filter bar's form (react-hook-form over the contract's schema, contract/analytics-form.ts), kept in the
 * address (./filters.ts). The fields hold their own values: the router applies address changes in a
 * transition, a beat after the key press, and a field bound to the address alone would lose keys typed in
 * between. An address change from elsewhere (the menu link back to the plain page, a pasted link) replaces
 * what the fields hold.
 *
 * Every change checks the whole bar at once, as a submit would (each problem named under its field, issue 21
 * item 3: minimum above maximum, start after end...). Valid filters are applied and written to the address; a
 * wrong entry changes nothing else: the figures stay those of the last valid filters, and the address keeps
 * them too, so a reload or a shared link never carries a wrong entry. `filters`, what to ask the API for,
 * follows the applied filters once typing pauses; `pending` says a change is still to come (the bar's
 * `aria-busy`), so a test can tell that a wrong entry asked for nothing without waiting out the pause.
 */
export function useAnalyticsFilters<G extends Granularity>(options: FilterOptions<G>, { firstDay, today }: Extent) {
  const [searchParams, setSearchParams] = useSearchParams();
  const location = useLocation();
  const fromAddress = readFilterInput(searchParams, today, options, firstDay);
  const addressKey = JSON.stringify(fromAddress);
  const ownChange = (location.state as typeof FROM_FILTER_BAR | null)?.filterBar === true;

  const form = useForm<FilterInput<G>, unknown, AnalyticsFilters<G>>({
    resolver: resolver as unknown as Resolver<FilterInput<G>, unknown, AnalyticsFilters<G>>,
    defaultValues: fromAddress,
    // The bar is checked as a whole on each change (`settle`), never field by field, and takes no focus.
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    shouldFocusError: false,
  });
  const { handleSubmit, reset, setValue, getValues, control, formState } = form;
  // The address's filters at first; beside a wrong entry in a hand-edited link, the default ones.
  const [applied, setApplied] = useState(() => validateFilters(fromAddress).filters ?? validateFilters(defaultInput(today, options, firstDay)).filters);

  /** Checks the bar; valid filters are applied, and with `write` kept in the address too. */
  const settle = useCallback(
    (write: boolean) =>
      handleSubmit((filters) => {
        setApplied(filters);
        if (write) {
          const typed = getValues();
          setSearchParams((current) => writeFilterInput(current, typed, today, options, firstDay), { replace: true, state: FROM_FILTER_BAR });
        }
      })(),
    [handleSubmit, getValues, setSearchParams, today, options, firstDay],
  );

  // The address from elsewhere (and as the page opens): its filters replace the fields', and are checked.
  useEffect(() => {
    if (ownChange) return;
    reset(JSON.parse(addressKey) as FilterInput<G>);
    void settle(false);
  }, [addressKey, ownChange, reset, settle]);

  const change = useCallback(() => void settle(true), [settle]);
  const pickPreset = useCallback(
    (preset: RangePreset) => {
      const range = presetRange(preset, today, firstDay);
      setValue('from', range.from);
      setValue('to', range.to);
      void settle(true);
    },
    [setValue, settle, today, firstDay],
  );

  const [from, to] = useWatch({ control, name: ['from', 'to'] });
  const problems: FilterProblems = {};
  for (const field of FILTER_FIELDS) {
    const problem = formState.errors[field]?.message;
    if (problem) problems[field] = problem as FilterProblem;
  }
  const filters = useSettled(applied);
  const pending = formState.isSubmitting || JSON.stringify(filters) !== JSON.stringify(applied);
  return { register: form.register, change, problems, filters, pending, preset: presetOf({ from, to }, today, firstDay), pickPreset };
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
