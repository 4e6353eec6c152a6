import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AnalyticsEvent } from '../../contract/analytics.js';
import type { AnalyticsFilters } from '../../src/pages/admin/analytics/filters.js';
import { LIVE_REFETCH_DELAY_MS, useLiveCounters } from '../../src/pages/admin/analytics/useLiveCounters.js';

/** The handler the dashboard gave the event stream, to play the server's part. */
let announce: (event: AnalyticsEvent) => void = () => undefined;
vi.mock('@refinedev/core', () => ({
  useSubscription: ({ channel, onLiveEvent }: { channel: string; onLiveEvent: (event: { payload: unknown }) => void }) => {
    if (channel === 'resources/analytics') announce = (event) => onLiveEvent({ payload: event });
  },
}));

const FILTERS: AnalyticsFilters = { from: '2026-11-01', to: '2026-11-30', granularity: 'day', suspicious: 'include', minPlayed: null, maxPlayed: null };
const report = (sessions: number): AnalyticsEvent => ({ type: 'analytics', day: '2026-11-22', sessions, playedSeconds: 60 * sessions, exports: 0, launches: 0 });

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the dashboard live counters', () => {
  it('count a burst of reports at once and refetch once, a second after the last', async () => {
    let finish: (result: { isError: boolean }) => void = () => undefined;
    const refetch = vi.fn(() => new Promise<{ isError: boolean }>((resolve) => (finish = resolve)));
    const { result } = renderHook(() => useLiveCounters(FILTERS, 'all', refetch));

    act(() => announce(report(1)));
    await act(() => vi.advanceTimersByTimeAsync(LIVE_REFETCH_DELAY_MS / 2));
    act(() => announce(report(2)));
    expect(result.current.sessions).toBe(3);
    await act(() => vi.advanceTimersByTimeAsync(LIVE_REFETCH_DELAY_MS - 1));
    expect(refetch).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(refetch).toHaveBeenCalledTimes(1);

    // A report while the refetch is under way is not in its figures: it stays counted.
    act(() => announce(report(4)));
    await act(async () => finish({ isError: false }));
    expect(result.current.sessions).toBe(4);
  });

  it('keep their counts when the refetch fails', async () => {
    const refetch = vi.fn(() => Promise.resolve({ isError: true }));
    const { result } = renderHook(() => useLiveCounters(FILTERS, 'all', refetch));
    act(() => announce(report(1)));
    await act(() => vi.advanceTimersByTimeAsync(LIVE_REFETCH_DELAY_MS));
    expect(refetch).toHaveBeenCalledTimes(1);
    expect(result.current.sessions).toBe(1);
  });

  it('under a filter only refetch, and start again from zero for new filters', async () => {
    const refetch = vi.fn(() => Promise.resolve({ isError: false }));
    const { result, rerender } = renderHook(({ filters }) => useLiveCounters(filters, 'all', refetch), { initialProps: { filters: FILTERS } });
    act(() => announce(report(1)));
    expect(result.current.sessions).toBe(1);
    rerender({ filters: { ...FILTERS, suspicious: 'only' } });
    expect(result.current.sessions).toBe(0);
    act(() => announce(report(1)));
    expect(result.current.sessions).toBe(0);
    await act(() => vi.advanceTimersByTimeAsync(LIVE_REFETCH_DELAY_MS));
    expect(refetch).toHaveBeenCalledTimes(1);
  });
});
