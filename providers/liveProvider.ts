import type { LiveEvent, LiveProvider } from '@refinedev/core';
import type { AnalyticsEvent } from '../contract/analytics.js';
import type { PortalEvent } from '../contract/events.js';

/** Spec section 9: the server writes a heartbeat every 45000 ms (contract/events.ts, not imported: it carries zod). */
const EVENT_STREAM_HEARTBEAT_MS = 45_000;

/** Reconnect delays after a dropped stream: doubling from 1 s up to 30 s, reset once a stream opens. */
export const BACKOFF_MS = [1000, 2000, 4000, 8000, 16000, 30000] as const;

/**
 * The server writes at least a heartbeat every EVENT_STREAM_HEARTBEAT_MS (spec section 9). A stream
 * silent for two of them is dead (a proxy or a sleeping laptop dropped it without closing): reconnect.
 */
export const STALE_STREAM_MS = 2 * EVENT_STREAM_HEARTBEAT_MS;

/** After the last subscriber leaves, the stream stays open this long: moving between pages keeps one stream. */
export const LINGER_MS = 5000;

/**
 * Which resources each kind of event changes: the queries of those resources are refetched (Refine's
 * live mode "auto"), and no others. A payment changes the invoices, the subscription it paid and the
 * licence it bought; a released seat changes the seats and the licence's seat count. The account home
 * (`overview`) shows all of them, so every event refreshes it.
 */
export const EVENT_RESOURCES: Record<PortalEvent['type'], readonly string[]> = {
  subscription: ['subscription', 'payment-method', 'invoices', 'overview'],
  transaction: ['invoices', 'subscription', 'payment-method', 'licences', 'overview'],
  licence: ['licences', 'seats', 'overview'],
  seat: ['seats', 'licences', 'overview'],
};

/** Splits a server-sent-event text into its events' data lines (comments and heartbeats are skipped). */
export function parseEvents(buffer: string): { events: string[]; rest: string } {
  const blocks = buffer.split('\n\n');
  const rest = blocks.pop() ?? '';
  const events = blocks
    .map((block) =>
      block
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n'),
    )
    .filter((data) => data !== '');
  return { events, rest };
}

function parseJson(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The stream's two shapes (contract/events.ts and contract/analytics.ts), checked by hand: the signed-in
 * frame loads this module on every page, and zod would weigh 26 KB there (tests/unit/serverEvents.test.tsx
 * holds these checks to the contract's schemas).
 */
export function isPortalEvent(value: unknown): value is PortalEvent {
  if (typeof value !== 'object' || value === null) return false;
  const event = value as Record<string, unknown>;
  return typeof event.type === 'string' && Object.hasOwn(EVENT_RESOURCES, event.type) && typeof event.id === 'string';
}

export function isAnalyticsEvent(value: unknown): value is AnalyticsEvent {
  if (typeof value !== 'object' || value === null) return false;
  const event = value as Record<string, unknown>;
  const count = (field: string) => Number.isInteger(event[field]);
  return event.type === 'analytics' && typeof event.day === 'string' && ['sessions', 'playedSeconds', 'exports', 'launches'].every(count);
}

/** The Refine live events one stream message stands for: one per resource it changes. */
export function liveEventsOf(data: string, now: Date): LiveEvent[] {
  const json = parseJson(data);
  if (isPortalEvent(json)) {
    return EVENT_RESOURCES[json.type].map((resource) => ({
      channel: `resources/${resource}`,
      type: 'updated',
      payload: { ids: [json.id], kind: json.type },
      date: now,
    }));
  }
  if (isAnalyticsEvent(json)) {
    const { type, day, sessions, playedSeconds, exports, launches } = json;
    return [{ channel: 'resources/analytics', type: 'created', payload: { type, day, sessions, playedSeconds, exports, launches }, date: now }];
  }
  return [];
}

/**
 * What opening the stream gave: its body, or why there is none that asking again would change: no session is
 * held (nothing was asked), or the server refused the session held (401, after a renewal where one helps). A
 * stream that failed otherwise (dropped, 503 while the server holds its maximum) rejects, and is asked again.
 */
export type StreamOpening = ReadableStream<Uint8Array> | 'no-session' | 'refused';
type OpenStream = (url: string, signal: AbortSignal) => Promise<StreamOpening>;

interface Subscription {
  channel: string;
  types: readonly string[];
  callback: (event: LiveEvent) => void;
}

/**
 * Refine's live provider over the signed-in user's event stream (`GET /api/events`, spec section 9):
 * one stream per tab however many queries listen (the server allows a few per session), opened with
 * the first subscriber and closed a little after the last; it reconnects with backoff when the stream
 * drops or goes silent. Each message becomes an event on the channels of the resources it changes.
 *
 * Issue 48 item 10: without a session, or with one the server refused, the stream stays closed until the
 * next session (`reset`): asked again, it would only be refused again, a 401 in the console each time. A
 * refusal is told (`onRefused`): the server closes the streams of a session that ended (signed out on another
 * device, every other session ended), and the reconnection's refusal is how the tab hears of it.
 */
export function createLiveProvider(open: OpenStream, onRefused: () => void = () => undefined): LiveProvider & { reset(): void } {
  const subscriptions = new Set<Subscription>();
  let stop: (() => void) | null = null;
  let linger: ReturnType<typeof setTimeout> | undefined;

  const dispatch = (event: LiveEvent) => {
    for (const subscription of [...subscriptions]) {
      if (subscription.channel !== event.channel) continue;
      if (!subscription.types.includes('*') && !subscription.types.includes(event.type)) continue;
      subscription.callback(event);
    }
  };

  const start = () => {
    const controller = new AbortController();
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const connect = async () => {
      const connection = new AbortController();
      const drop = () => connection.abort();
      controller.signal.addEventListener('abort', drop);
      let watchdog = setTimeout(drop, STALE_STREAM_MS);
      try {
        const body = await open('/events', connection.signal);
        if (body === 'no-session' || body === 'refused') {
          if (body === 'refused' && !controller.signal.aborted) onRefused();
          return;
        }
        attempt = 0;
        const reader = body.getReader();
        const decoder = new TextDecoder();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          clearTimeout(watchdog);
          watchdog = setTimeout(drop, STALE_STREAM_MS);
          const parsed = parseEvents(buffer + decoder.decode(value, { stream: true }));
          buffer = parsed.rest;
          for (const data of parsed.events) liveEventsOf(data, new Date()).forEach(dispatch);
        }
      } catch {
        // A dropped stream, or one that did not open (a network failure, a 503): reconnect below, unless nobody listens any more.
      } finally {
        clearTimeout(watchdog);
        controller.signal.removeEventListener('abort', drop);
      }
      if (controller.signal.aborted) return;
      const delay = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)];
      attempt += 1;
      timer = setTimeout(() => void connect(), delay);
    };
    void connect();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  };

  return {
    subscribe({ channel, types, callback }) {
      const subscription: Subscription = { channel, types, callback };
      subscriptions.add(subscription);
      clearTimeout(linger);
      stop ??= start();
      return subscription;
    },
    unsubscribe(subscription: Subscription) {
      subscriptions.delete(subscription);
      if (subscriptions.size > 0) return;
      clearTimeout(linger);
      linger = setTimeout(() => {
        if (subscriptions.size > 0) return;
        stop?.();
        stop = null;
      }, LINGER_MS);
    },
    /**
     * The session changed or ended (issue 44 item 8): the stream, opened with its token, closes now and its
     * listeners are forgotten; the next subscriber opens a stream of the session held then.
     */
    reset() {
      subscriptions.clear();
      clearTimeout(linger);
      stop?.();
      stop = null;
    },
  };
}
