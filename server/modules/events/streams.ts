import { randomUUID } from 'node:crypto';
import { hasPermission } from '../../../contract/permissions.js';
import { AppError } from '../../errors.js';
import type { EventBus, StreamControl } from './bus.js';

/**
 * Issue 44 item 9: a user holds at most this many open streams, across their sessions and across the
 * instances; the next one closes the oldest, so one user cannot take every stream of `EVENT_STREAMS_MAX`.
 */
export const STREAMS_PER_USER = 10;

export interface OpenStream {
  userId: string;
  sessionId: string;
  /** Closes the stream (the connection ends). */
  end(): void;
  /** Starts or stops hearing the admins' events (the figures' live counters), when the user's roles change. */
  setAdmin(admin: boolean): void;
}

/**
 * The open event streams of this process, bounded in total (`EVENT_STREAMS_MAX`: a new one is refused
 * with 503) and per user across every instance. A stream ends when its session ends or its user is
 * deleted, and hears admin events only while its user may read the figures (`analytics.read`, issue 47), as
 * the bus announces.
 *
 * The bound per user, on several instances (issue 44): every stream's opening and closing is announced on
 * the bus, and every instance hears the announcements in one order (PostgreSQL delivers notifications in
 * commit order; SQLite is one process). "Older" is that order. From the moment an instance hears the
 * opening of a stream it holds, it follows that user's openings and closings; whenever one of its own
 * streams has STREAMS_PER_USER newer ones, it closes it. Every stream newer than one it holds was heard
 * after it, so the holder of the oldest always knows enough to close it, and no one needs a clock or
 * a lock. An instance killed outright never announces its closings: until the user's view forgets them
 * (when this instance holds none of their streams), they count, and may close one stream early; the
 * browser's live provider reconnects it. Announcements missed while the bus reconnects are missed alike.
 */
export class StreamRegistry {
  /** This process's streams, by id. */
  private readonly local = new Map<string, OpenStream>();
  /** Per user with a stream here: the ids of their open streams on every instance, oldest first, as heard. */
  private readonly heard = new Map<string, string[]>();

  constructor(
    private readonly bus: EventBus,
    private readonly maxTotal: number,
  ) {
    bus.onControl((control) => this.apply(control));
  }

  /** Registers a stream; throws TOO_MANY_STREAMS when the process holds its maximum. Returns its forgetting. */
  open(stream: OpenStream): () => void {
    if (this.local.size >= this.maxTotal) throw new AppError('TOO_MANY_STREAMS', 503);
    const streamId = randomUUID();
    this.local.set(streamId, stream);
    this.bus.announce({ kind: 'stream-opened', userId: stream.userId, streamId });
    return () => {
      if (!this.local.delete(streamId)) return;
      // Not followed once none is held here (the announcement below may be lost to a reconnecting bus).
      if (!this.holdsStreamOf(stream.userId)) this.heard.delete(stream.userId);
      this.bus.announce({ kind: 'stream-closed', userId: stream.userId, streamId });
    };
  }

  get size(): number {
    return this.local.size;
  }

  private apply(control: StreamControl): void {
    if (control.kind === 'stream-opened') this.heardOpen(control.userId, control.streamId);
    else if (control.kind === 'stream-closed') this.heardClosed(control.userId, control.streamId);
    else if ('userId' in control) {
      for (const stream of [...this.local.values()]) {
        if (stream.userId !== control.userId) continue;
        if (control.kind === 'user-deleted') stream.end();
        else if (control.kind === 'sessions-ended' && (control.sessionIds === 'all' || control.sessionIds.includes(stream.sessionId))) stream.end();
        else if (control.kind === 'roles-changed') stream.setAdmin(hasPermission(control.roles, 'analytics.read'));
      }
    }
  }

  private holdsStreamOf(userId: string): boolean {
    for (const stream of this.local.values()) if (stream.userId === userId) return true;
    return false;
  }

  private heardOpen(userId: string, streamId: string): void {
    const known = this.heard.get(userId);
    if (!known) {
      // Followed from the first opening heard of a stream held here; what opened before is older than it.
      if (!this.local.has(streamId)) return;
      this.heard.set(userId, [streamId]);
      return;
    }
    known.push(streamId);
    // Oldest first: each of ours with STREAMS_PER_USER newer ones closes (its closing is announced as it ends).
    const tooOld = known.slice(0, Math.max(0, known.length - STREAMS_PER_USER));
    for (const id of tooOld) this.local.get(id)?.end();
  }

  private heardClosed(userId: string, streamId: string): void {
    const known = this.heard.get(userId);
    if (!known) return;
    const at = known.indexOf(streamId);
    if (at >= 0) known.splice(at, 1);
    if (!this.holdsStreamOf(userId)) this.heard.delete(userId);
  }
}
