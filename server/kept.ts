import type { Clock } from './clock.js';

/** How a kept read is bounded; see `Kept`. */
export interface KeptOptions {
  clock: Clock;
  /**
   * Nothing is served older than this (by the clock, from when its read began), whatever the event bus
   * says: the bound on staleness should a notification be lost without the bus noticing.
   */
  maxAgeMs: number;
  /** At most this many entries; the oldest kept goes first. */
  maxEntries: number;
  /**
   * Whether this instance hears every invalidation now (server/modules/events: always within one process;
   * on PostgreSQL while its listening connection is up). While it does not, nothing is served or kept.
   */
  listening: () => boolean;
}

/**
 * What only writes change, kept by this instance so a request does not read it again (issue 45: the hot
 * path). The writes that change it forget it through the event bus: at once on the instance that wrote,
 * on every other one when PostgreSQL's notification reaches it.
 *
 * A read that began before a forget is not kept: an invalidation heard while the read ran may be of a
 * write the read did not see yet. Each forget moves one counter (`epoch`), and a read is kept only if the
 * counter has not moved since it began; the reads after the forget began after the write committed
 * (forgets are announced after the commit), so they see it. Forgetting never waits and never fails.
 */
export class Kept<K, V> {
  private readonly entries = new Map<K, { value: V; keptAt: number }>();
  private epoch = 0;

  constructor(private readonly options: KeptOptions) {}

  /**
   * The kept value of `key`, or `load()`'s, kept when `keep` says so (a missing user or an ended session
   * is never kept: the next request reads again).
   */
  async get(key: K, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    const now = this.options.clock.now().getTime();
    const listening = this.options.listening();
    if (listening) {
      const entry = this.entries.get(key);
      // A clock moved back (tests) finds nothing kept "from the future".
      if (entry && now >= entry.keptAt && now - entry.keptAt < this.options.maxAgeMs) return entry.value;
    }
    const epoch = this.epoch;
    const value = await load();
    if (listening && epoch === this.epoch && this.options.listening() && keep(value)) this.keep(key, value, now);
    return value;
  }

  /** Forgets `key` (and makes every read under way not kept). */
  forget(key: K): void {
    this.epoch += 1;
    this.entries.delete(key);
  }

  /** Forgets every entry `matches` says; a scan, for invalidations that are rare next to reads. */
  forgetWhere(matches: (key: K, value: V) => boolean): void {
    this.epoch += 1;
    for (const [key, entry] of this.entries) if (matches(key, entry.value)) this.entries.delete(key);
  }

  forgetAll(): void {
    this.epoch += 1;
    this.entries.clear();
  }

  /** How many entries are kept (tests, metrics). */
  get size(): number {
    return this.entries.size;
  }

  private keep(key: K, value: V, keptAt: number): void {
    this.entries.delete(key);
    if (this.entries.size >= this.options.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, keptAt });
  }
}
