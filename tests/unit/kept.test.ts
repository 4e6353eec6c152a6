import { describe, expect, it } from 'vitest';
import { FixedClock } from '../../server/clock.js';
import { Kept } from '../../server/kept.js';

/** server/kept.ts: what an instance keeps, and the rules that keep it from serving what a write changed. */
describe('Kept', () => {
  const clock = new FixedClock(new Date('2026-11-22T10:00:00.000Z'));
  let listening = true;
  const kept = () => new Kept<string, string>({ clock, maxAgeMs: 5_000, maxEntries: 3, listening: () => listening });

  function deferred() {
    let resolve: (value: string) => void = () => undefined;
    const promise = new Promise<string>((done) => {
      resolve = done;
    });
    return { promise, resolve };
  }

  it('reads once and answers from what it kept until it is forgotten', async () => {
    const store = kept();
    let reads = 0;
    const load = async () => `read ${++reads}`;
    expect(await store.get('a', load)).toBe('read 1');
    expect(await store.get('a', load)).toBe('read 1');
    store.forget('a');
    expect(await store.get('a', load)).toBe('read 2');
    store.forgetWhere((key) => key === 'a');
    expect(await store.get('a', load)).toBe('read 3');
    store.forgetAll();
    expect(await store.get('a', load)).toBe('read 4');
  });

  it('does not keep a read that was under way when something was forgotten: it may predate the write', async () => {
    const store = kept();
    const slow = deferred();
    const underway = store.get('a', () => slow.promise);
    // The write commits and is announced while the read runs; the read saw the row before it.
    store.forget('a');
    slow.resolve('before the write');
    expect(await underway).toBe('before the write');
    expect(await store.get('a', async () => 'after the write')).toBe('after the write');
  });

  it('keeps only what `keep` accepts (a missing user, an ended session)', async () => {
    const store = kept();
    expect(await store.get('a', async () => 'ended', (value) => value !== 'ended')).toBe('ended');
    expect(await store.get('a', async () => 'live')).toBe('live');
  });

  it('serves nothing older than its bound, nor from a clock moved back', async () => {
    const store = kept();
    await store.get('a', async () => 'first');
    clock.advance(4.999);
    expect(await store.get('a', async () => 'second')).toBe('first');
    clock.advance(0.001);
    expect(await store.get('a', async () => 'third')).toBe('third');
    clock.set(new Date(clock.now().getTime() - 60_000));
    expect(await store.get('a', async () => 'fourth')).toBe('fourth');
  });

  it('while it does not hear every invalidation, it neither serves nor keeps', async () => {
    const store = kept();
    await store.get('a', async () => 'heard');
    listening = false;
    try {
      expect(await store.get('a', async () => 'deaf 1')).toBe('deaf 1');
      expect(await store.get('a', async () => 'deaf 2')).toBe('deaf 2');
      expect(store.size).toBe(1);
    } finally {
      listening = true;
    }
  });

  it('holds at most maxEntries, the oldest kept going first', async () => {
    const store = kept();
    for (const key of ['a', 'b', 'c', 'd']) await store.get(key, async () => key);
    expect(store.size).toBe(3);
    expect(await store.get('a', async () => 'a again')).toBe('a again');
    expect(await store.get('d', async () => 'd again')).toBe('d');
  });
});
