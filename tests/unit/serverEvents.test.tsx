import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { analyticsEventSchema } from '../../contract/analytics.js';
import { BACKOFF_MS, STALE_STREAM_MS, useEventStream, useServerEvents } from '../../src/billing/useEventStream.js';

/** Each call of openStream gets the next of these: the texts the server writes, then the stream stays open. */
const streams: string[][] = [];
const opened = vi.fn();
/** Writes to the stream opened last, as the server would later. */
let write: (text: string) => void = () => undefined;

vi.mock('../../providers/http.js', () => ({
  openStream: (_url: string, signal: AbortSignal) => {
    opened();
    const texts = streams.shift() ?? [];
    return Promise.resolve(
      new ReadableStream<Uint8Array>({
        start(controller) {
          write = (text) => controller.enqueue(new TextEncoder().encode(text));
          texts.forEach(write);
          // As fetch does: an aborted request errors its body.
          signal.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
        },
      }),
    );
  },
}));

const portal = 'event: seat\ndata: {"type":"seat","id":"s1"}\n\n';
const analytics = 'event: analytics\ndata: {"type":"analytics","day":"2026-11-22","sessions":1,"playedSeconds":60,"exports":0,"launches":0}\n\n';

beforeEach(() => {
  vi.useFakeTimers();
  streams.length = 0;
  opened.mockClear();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the event stream hooks (GET /api/events)', () => {
  it('each hook hears only the events its schema accepts, on the one stream', async () => {
    streams.push([`: connected\n\n${portal}${analytics}: heartbeat\n\n`], [`${portal}${analytics}`]);
    const portalEvents = vi.fn();
    const analyticsEvents = vi.fn();
    renderHook(() => useEventStream(portalEvents));
    renderHook(() => useServerEvents(analyticsEventSchema, analyticsEvents));
    await vi.advanceTimersByTimeAsync(0);
    expect(portalEvents.mock.calls).toEqual([[{ type: 'seat', id: 's1' }]]);
    expect(analyticsEvents.mock.calls).toEqual([[{ type: 'analytics', day: '2026-11-22', sessions: 1, playedSeconds: 60, exports: 0, launches: 0 }]]);
  });

  it('skips a data line that is not JSON instead of dropping the stream', async () => {
    streams.push([`data: {not json\n\n${portal}`]);
    const events = vi.fn();
    renderHook(() => useEventStream(events));
    await vi.advanceTimersByTimeAsync(0);
    expect(events).toHaveBeenCalledTimes(1);
    expect(opened).toHaveBeenCalledTimes(1);
  });

  it('a stream silent for two heartbeats is dropped and opened again after the backoff', async () => {
    streams.push([': connected\n\n']);
    renderHook(() => useEventStream(() => undefined));
    await vi.advanceTimersByTimeAsync(STALE_STREAM_MS - 1);
    expect(opened).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1 + BACKOFF_MS[0]);
    expect(opened).toHaveBeenCalledTimes(2);
  });

  it('a heartbeat keeps a quiet stream open', async () => {
    streams.push([': connected\n\n']);
    renderHook(() => useEventStream(() => undefined));
    for (let beat = 0; beat < 4; beat += 1) {
      await vi.advanceTimersByTimeAsync(STALE_STREAM_MS / 2);
      write(': heartbeat\n\n');
    }
    await vi.advanceTimersByTimeAsync(BACKOFF_MS[0]);
    expect(opened).toHaveBeenCalledTimes(1);
  });

  it('stops listening when the screen goes', async () => {
    streams.push([]);
    const { unmount } = renderHook(() => useEventStream(() => undefined));
    await vi.advanceTimersByTimeAsync(0);
    unmount();
    await vi.advanceTimersByTimeAsync(STALE_STREAM_MS + Math.max(...BACKOFF_MS));
    expect(opened).toHaveBeenCalledTimes(1);
  });
});
