import type { AnalyticsEvent, AnalyticsResponse, Channel } from '../../../../contract/analytics.js';
import type { AnalyticsFilters } from './filters.js';

/**
 * The dashboard's live counters (issue "Usage analytics and cohorts"): each `analytics` event of the
 * event stream adds its reports to the KPIs at once, until the refetch it triggers brings figures that
 * hold them. Events are numbered; a refetch that started after event n has event n in its figures, so
 * when it lands the events up to n are dropped (`settled`). One that lands later is added on top until
 * its own refetch, which follows within a second.
 */
export interface LiveCounts {
  sessions: number;
  playedSeconds: number;
  exports: number;
  launches: number;
}

export interface LiveState {
  /** The number of the last event counted. */
  seq: number;
  /** Counted events that no fetched figures hold yet. */
  pending: (LiveCounts & { seq: number })[];
}

export const NO_LIVE: LiveState = { seq: 0, pending: [] };

/** Which events the view shows: those of a day in its range, and only while nothing filters them. */
export interface LiveScope {
  from: string;
  to: string;
  /**
   * An event says neither whether its sessions were suspicious, how long its user has played in the
   * period, nor which channel the user came through; under those filters the refetch alone is right.
   */
  countsEvents: boolean;
}

export type LiveAction = { type: 'event'; event: AnalyticsEvent; scope: LiveScope } | { type: 'settled'; seq: number } | { type: 'reset' };

export function liveScope(filters: AnalyticsFilters, channel: Channel): LiveScope {
  return {
    from: filters.from,
    to: filters.to,
    countsEvents: channel === 'all' && filters.suspicious === 'include' && filters.minPlayed === null && filters.maxPlayed === null,
  };
}

export function liveReducer(state: LiveState, action: LiveAction): LiveState {
  switch (action.type) {
    case 'event': {
      const { event, scope } = action;
      if (!scope.countsEvents || event.day < scope.from || event.day > scope.to) return state;
      const seq = state.seq + 1;
      const counts = { sessions: event.sessions, playedSeconds: event.playedSeconds, exports: event.exports, launches: event.launches };
      return { seq, pending: [...state.pending, { ...counts, seq }] };
    }
    case 'settled':
      return { ...state, pending: state.pending.filter((entry) => entry.seq > action.seq) };
    case 'reset':
      return state.pending.length === 0 ? state : { ...state, pending: [] };
  }
}

export function liveCounts(state: LiveState): LiveCounts {
  return state.pending.reduce(
    (sum, entry) => ({
      sessions: sum.sessions + entry.sessions,
      playedSeconds: sum.playedSeconds + entry.playedSeconds,
      exports: sum.exports + entry.exports,
      launches: sum.launches + entry.launches,
    }),
    { sessions: 0, playedSeconds: 0, exports: 0, launches: 0 },
  );
}

/** The figures at the top of the dashboard. */
export interface Kpis {
  newUsers: number;
  /** The mean per period (distinct users do not add up across periods). */
  activeUsers: number;
  sessions: number;
  averageSessionSeconds: number;
  playedSeconds: number;
  exports: number;
  launches: number;
  activations: number;
  sales: number;
}

/** The range's totals with the live reports not yet in them. The average length waits for the refetch. */
export function kpisOf(totals: AnalyticsResponse['totals'], live: LiveCounts): Kpis {
  const exports = Object.values(totals.exports).reduce((sum, count) => sum + count, 0);
  return {
    newUsers: totals.newUsers,
    activeUsers: totals.activeUsers,
    sessions: totals.sessions + live.sessions,
    averageSessionSeconds: totals.averageSessionSeconds,
    playedSeconds: totals.playedSeconds + live.playedSeconds,
    exports: exports + live.exports,
    launches: totals.launches + live.launches,
    activations: totals.activations,
    sales: totals.sales,
  };
}
