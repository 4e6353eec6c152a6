import { useEffect, useRef } from 'react';
import { portalEventSchema, type PortalEvent } from '../../contract/events.js';
import { openStream } from '../../providers/http.js';

/** Reconnect delays after a dropped stream: doubling from 1 s up to 30 s, reset once a stream opens. */
export const BACKOFF_MS = [1000, 2000, 4000, 8000, 16000, 30000] as const;

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

/**
 * The signed-in user's event stream (`GET /api/events`): calls `onEvent` for each change the server
 * announces (a subscription, transaction, licence or seat), reconnecting with backoff when it drops.
 * fetch, not EventSource, so the bearer token goes in a header rather than the URL.
 */
export function useEventStream(onEvent: (event: PortalEvent) => void, enabled = true): void {
  const handler = useRef(onEvent);
  handler.current = onEvent;

  useEffect(() => {
    if (!enabled) return undefined;
    const controller = new AbortController();
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const connect = async () => {
      try {
        const body = await openStream('/events', controller.signal);
        attempt = 0;
        const reader = body.getReader();
        const decoder = new TextDecoder();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          const parsed = parseEvents(buffer + decoder.decode(value, { stream: true }));
          buffer = parsed.rest;
          for (const data of parsed.events) {
            const event = portalEventSchema.safeParse(JSON.parse(data));
            if (event.success) handler.current(event.data);
          }
        }
      } catch {
        if (controller.signal.aborted) return;
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
  }, [enabled]);
}
