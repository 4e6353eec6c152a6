import type { LiveEvent } from '@refinedev/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { analyticsEventSchema } from '../../contract/analytics.js';
import { EVENT_STREAM_HEARTBEAT_MS, portalEventSchema } from '../../contract/events.js';
import { BACKOFF_MS, createLiveProvider, isAnalyticsEvent, isPortalEvent, LINGER_MS, STALE_STREAM_MS, type StreamOpening } from '../../providers/liveProvider.js';

/** Each opening of the stream gets the next of these: the texts the server writes, then the stream stays open. */
const streams: string[][] = [];
const opened = vi.fn();
/** The abort signal of each stream opened, in order. */
const signals: AbortSignal[] = [];
/** Writes to the stream opened last, as the server would later. */
let write: (text: string) => void = () => undefined;

function open(_url: string, signal: AbortSignal): Promise<StreamOpening> {
  opened();
  signals.push(signal);
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
}

const seat = 'event: seat\ndata: {"type":"seat","id":"s1"}\n\n';
const payment = 'event: transaction\ndata: {"type":"transaction","id":"txn_1"}\n\n';
const analytics = 'event: analytics\ndata: {"type":"analytics","day":"2026-11-22","sessions":1,"playedSeconds":60,"exports":0,"launches":0}\n\n';

function listen(provider: ReturnType<typeof createLiveProvider>, resource: string) {
  const heard: LiveEvent[] = [];
  const handle: unknown = provider.subscribe({ channel: `resources/${resource}`, types: ['*'], callback: (event) => heard.push(event) });
  return { heard, stop: () => provider.unsubscribe(handle) };
}

beforeEach(() => {
  vi.useFakeTimers();
  streams.length = 0;
  signals.length = 0;
  opened.mockClear();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("Refine's live provider over the event stream (GET /api/events)", () => {
  it('each event reaches exactly the resources it changes, on one stream for all of them', async () => {
    streams.push([`: connected\n\n${seat}${payment}${analytics}: heartbeat\n\n`]);
    const provider = createLiveProvider(open);
    const seats = listen(provider, 'seats');
    const invoices = listen(provider, 'invoices');
    const sessions = listen(provider, 'sessions');
    const dashboard = listen(provider, 'analytics');
    await vi.advanceTimersByTimeAsync(0);
    expect(opened).toHaveBeenCalledTimes(1);
    expect(seats.heard.map((event) => event.payload)).toEqual([{ ids: ['s1'], kind: 'seat' }]);
    expect(invoices.heard.map((event) => event.payload)).toEqual([{ ids: ['txn_1'], kind: 'transaction' }]);
    expect(sessions.heard).toEqual([]);
    expect(dashboard.heard.map((event) => event.payload)).toEqual([
      { type: 'analytics', day: '2026-11-22', sessions: 1, playedSeconds: 60, exports: 0, launches: 0 },
    ]);
  });

  it('skips a data line that is not JSON instead of dropping the stream', async () => {
    streams.push([`data: {not json\n\n${seat}`]);
    const seats = listen(createLiveProvider(open), 'seats');
    await vi.advanceTimersByTimeAsync(0);
    expect(seats.heard).toHaveLength(1);
    expect(opened).toHaveBeenCalledTimes(1);
  });

  it('a stream silent for two heartbeats is dropped and opened again after the backoff', async () => {
    streams.push([': connected\n\n']);
    listen(createLiveProvider(open), 'seats');
    await vi.advanceTimersByTimeAsync(STALE_STREAM_MS - 1);
    expect(opened).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1 + BACKOFF_MS[0]);
    expect(opened).toHaveBeenCalledTimes(2);
  });

  it('a heartbeat keeps a quiet stream open', async () => {
    streams.push([': connected\n\n']);
    listen(createLiveProvider(open), 'seats');
    for (let beat = 0; beat < 4; beat += 1) {
      await vi.advanceTimersByTimeAsync(STALE_STREAM_MS / 2);
      write(': heartbeat\n\n');
    }
    await vi.advanceTimersByTimeAsync(BACKOFF_MS[0]);
    expect(opened).toHaveBeenCalledTimes(1);
  });

  it('moving to another page keeps the stream; it closes a little after the last listener leaves', async () => {
    streams.push([]);
    const provider = createLiveProvider(open);
    const first = listen(provider, 'seats');
    await vi.advanceTimersByTimeAsync(0);
    first.stop();
    listen(provider, 'invoices').stop();
    const next = listen(provider, 'licences');
    await vi.advanceTimersByTimeAsync(LINGER_MS * 2);
    expect(opened).toHaveBeenCalledTimes(1);
    next.stop();
    await vi.advanceTimersByTimeAsync(LINGER_MS + STALE_STREAM_MS + Math.max(...BACKOFF_MS));
    expect(opened).toHaveBeenCalledTimes(1);
  });

  it('a change of session (issue 44 item 8) closes the stream at once and forgets its listeners; the next session opens its own', async () => {
    streams.push([], [seat]);
    const provider = createLiveProvider(open);
    const before = listen(provider, 'seats');
    await vi.advanceTimersByTimeAsync(0);
    provider.reset();
    // The stream of the session before, opened with its token, is closed at once.
    expect(signals[0]?.aborted).toBe(true);
    expect(before.heard).toEqual([]);
    // The frame of the session before unmounts after the next one subscribed: its leaving closes nothing.
    const after = listen(provider, 'seats');
    before.stop();
    await vi.advanceTimersByTimeAsync(LINGER_MS * 2);
    expect(opened).toHaveBeenCalledTimes(2);
    expect(after.heard.map((event) => event.payload)).toEqual([{ ids: ['s1'], kind: 'seat' }]);
  });
});

describe('a stream without a session (issue 48 item 10)', () => {
  /** An opening that answers `outcome` each time, counted. */
  function answering(outcome: 'no-session' | 'refused') {
    const asked = vi.fn();
    const opening = (): Promise<StreamOpening> => {
      asked();
      return Promise.resolve(outcome);
    };
    return { asked, open: opening };
  }

  it('is not asked again while no session is held: the next session opens its own', async () => {
    const { asked, open: none } = answering('no-session');
    const refused = vi.fn();
    const provider = createLiveProvider(none, refused);
    listen(provider, 'seats');
    await vi.advanceTimersByTimeAsync(STALE_STREAM_MS + BACKOFF_MS.reduce((sum, delay) => sum + delay, 0));
    expect(asked).toHaveBeenCalledTimes(1);
    expect(refused).not.toHaveBeenCalled();
    provider.reset();
    listen(provider, 'seats');
    await vi.advanceTimersByTimeAsync(0);
    expect(asked).toHaveBeenCalledTimes(2);
  });

  it('refused by the server, it is told once and not asked again', async () => {
    const { asked, open: refusing } = answering('refused');
    const refused = vi.fn();
    const provider = createLiveProvider(refusing, refused);
    listen(provider, 'seats');
    listen(provider, 'invoices');
    await vi.advanceTimersByTimeAsync(STALE_STREAM_MS + BACKOFF_MS.reduce((sum, delay) => sum + delay, 0));
    expect(asked).toHaveBeenCalledTimes(1);
    expect(refused).toHaveBeenCalledTimes(1);
  });

  it('a refusal heard after the session changed tells nothing', async () => {
    let answer: (outcome: 'refused') => void = () => undefined;
    const refused = vi.fn();
    const provider = createLiveProvider(() => new Promise((resolve) => (answer = resolve)), refused);
    listen(provider, 'seats');
    await vi.advanceTimersByTimeAsync(0);
    provider.reset();
    answer('refused');
    await vi.advanceTimersByTimeAsync(0);
    expect(refused).not.toHaveBeenCalled();
  });
});

describe("the live provider's event checks agree with the contract's schemas", () => {
  const samples: unknown[] = [
    { type: 'seat', id: 's1' },
    { type: 'transaction', id: 'txn_1' },
    { type: 'subscription', id: 7 },
    { type: 'refund', id: 'r1' },
    null,
    'seat',
    { type: 'analytics', day: '2026-11-22', sessions: 1, playedSeconds: 60, exports: 0, launches: 0 },
    { type: 'analytics', day: '2026-11-22', sessions: 1.5, playedSeconds: 60, exports: 0, launches: 0 },
    { type: 'analytics', day: 3, sessions: 1, playedSeconds: 60, exports: 0, launches: 0 },
  ];
  it.each(samples.map((sample) => [JSON.stringify(sample), sample]))('%s', (_name, sample) => {
    expect(isPortalEvent(sample)).toBe(portalEventSchema.safeParse(sample).success);
    expect(isAnalyticsEvent(sample)).toBe(analyticsEventSchema.safeParse(sample).success);
  });

  it('the heartbeat the provider expects is the contract one', () => {
    expect(STALE_STREAM_MS).toBe(2 * EVENT_STREAM_HEARTBEAT_MS);
  });
});
