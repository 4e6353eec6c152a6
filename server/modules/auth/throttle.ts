import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import * as repo from './throttle-repo.js';

/** 429 with the seconds until the window ends, for the `Retry-After` header. */
function tooMany(windowEndsAt: string, now: Date): AppError {
  return new AppError('TOO_MANY_REQUESTS', 429, { retryAfterSeconds: Math.max(1, Math.ceil((Date.parse(windowEndsAt) - now.getTime()) / 1000)) });
}

export interface ThrottleRule {
  /** Attempts allowed per window. */
  limit: number;
  windowSeconds: number;
}

/**
 * Counts attempts per key (an action and an email address) in the database, so every server process
 * shares the count: guesses at one account are refused with 429 TOO_MANY_REQUESTS once the limit is
 * passed, whatever address they come from. Keyed by the address as typed, so an unknown address is
 * throttled exactly like a registered one.
 */
export class Throttle {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  /** The time the counts are kept by (the injected clock). */
  now(): Date {
    return this.clock.now();
  }

  /** Counts one attempt; throws 429 when it is over the limit. */
  async hit(key: string, rule: ThrottleRule): Promise<void> {
    const { count, windowEndsAt } = await this.increment(key, rule.windowSeconds * 1000);
    if (count > rule.limit) throw tooMany(windowEndsAt, this.clock.now());
  }

  /**
   * Counts one attempt under `key` in one statement (an upsert: instances counting at once each get
   * their own number), starting a new window of `windowMs` when the last one has passed.
   */
  async increment(key: string, windowMs: number): Promise<{ count: number; windowEndsAt: string }> {
    const now = this.clock.now();
    return repo.incrementCounter(this.db, key, now.toISOString(), new Date(now.getTime() + windowMs).toISOString());
  }

  /** Forgets counts whose window ended more than an hour ago (housekeeping). */
  async prune(): Promise<void> {
    await repo.deleteCountersEndedBefore(this.db, new Date(this.clock.now().getTime() - 3_600_000).toISOString());
  }

  /** The attempts counted under `key` in its current window (0 when none or the window has passed). */
  async count(key: string): Promise<number> {
    const row = await repo.counterOf(this.db, key);
    return row && new Date(row.window_ends_at) > this.clock.now() ? Number(row.count) : 0;
  }

  /** Throws 429 when the key already used up its window, without counting an attempt. */
  async check(key: string, rule: ThrottleRule): Promise<void> {
    const row = await repo.counterOf(this.db, key);
    if (row && new Date(row.window_ends_at) > this.clock.now() && Number(row.count) >= rule.limit) {
      throw tooMany(row.window_ends_at, this.clock.now());
    }
  }

  async reset(key: string): Promise<void> {
    await repo.deleteCounter(this.db, key);
  }

  /**
   * Forgets every count kept under an email address (an account's deletion: the sign-in, reset and code
   * counters name it), in the caller's transaction.
   */
  async forgetAddress(address: string, within: Kysely<Database>): Promise<void> {
    await repo.deleteCountersOfAddress(within, address);
  }
}
