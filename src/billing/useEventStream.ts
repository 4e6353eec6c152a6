import { useEffect, useRef } from 'react';
import type { ZodType } from 'zod';
import { EVENT_STREAM_HEARTBEAT_MS, portalEventSchema, type PortalEvent } from '../../contract/events.js';
import { openStream } from '../../providers/http.js';

/** Reconnect delays after a dropped stream: doubling from 1 s up to 30 s, reset once a stream opens. */
export const BACKOFF_MS = [1000, 2000, 4000, 8000, 16000, 30000] as const;

/**
 * The server writes at least a heartbeat every EVENT_STREAM_HEARTBEAT_MS (spec section 9). A stream
 * silent for two of them is dead (a proxy or a sleeping laptop dropped it without closing): reconnect.
 */
export const STALE_STREAM_MS = 2 * EVENT_STREAM_HEARTBEAT_MS;

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
 * The signed-in user's event stream (`GET /api/events`): calls `onEvent` for each event that `schema`
 * accepts (others are for other screens), reconnecting with backoff when the stream drops or goes
 * silent. fetch, not EventSource, so the bearer token goes in a header rather than the URL.
 */
export function useServerEvents<T>(schema: ZodType<T>, onEvent: (event: T) => void, enabled = true): void {
  const handler = useRef(onEvent);
  handler.current = onEvent;

  useEffect(() => {
    if (!enabled) return undefined;
    const controller = new AbortController();
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const connect = async () => {
      const connection = new AbortController();
      const drop = () => connection.abort();
      controller.signal.addEventListener('abort', drop);
      let watchdog = setTimeout(drop, STALE_STREAM_MS);
      try {
        const body = await openStream('/events', connection.signal);
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
          for (const data of parsed.events) {
            const event = schema.safeParse(parseJson(data));
            if (event.success) handler.current(event.data);
          }
        }
      } catch {
        // A refused or dropped stream: reconnect below, unless the screen has gone.
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
      if (timer) clearTimeout(timer);
    };
  }, [schema, enabled]);
}

/** The changes to the user's subscription, transactions, licences and seats (see useServerEvents). */
export function useEventStream(onEvent: (event: PortalEvent) => void, enabled = true): void {
  useServerEvents(portalEventSchema, onEvent, enabled);
}
