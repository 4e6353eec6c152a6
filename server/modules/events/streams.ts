import { AppError } from '../../errors.js';
import type { EventBus, StreamControl } from './bus.js';

/** Issue 17: a session holds at most this many open streams; a sixth closes the oldest. */
export const STREAMS_PER_SESSION = 5;

export interface OpenStream {
  userId: string;
  sessionId: string;
  /** Closes the stream (the connection ends). */
  end(): void;
  /** Starts or stops hearing the admins' events, when the user's roles change. */
  setAdmin(admin: boolean): void;
}

/**
 * The open event streams of this process, bounded: per session (the oldest gives way) and in total
 * (`EVENT_STREAMS_MAX`: a new one is refused with 503). A stream ends when its session ends or its user
 * is deleted, and hears admin events only while its user is an admin, as the bus announces.
 */
export class StreamRegistry {
  private readonly streams = new Set<OpenStream>();

  constructor(
    bus: EventBus,
    private readonly maxTotal: number,
  ) {
    bus.onControl((control) => this.apply(control));
  }

  /** Registers a stream; throws TOO_MANY_STREAMS when the process holds its maximum. */
  open(stream: OpenStream): () => void {
    if (this.streams.size >= this.maxTotal) throw new AppError('TOO_MANY_STREAMS', 503);
    const ofSession = [...this.streams].filter((other) => other.sessionId === stream.sessionId);
    // Set iteration is insertion order: the first is the oldest.
    for (const oldest of ofSession.slice(0, Math.max(0, ofSession.length - STREAMS_PER_SESSION + 1))) oldest.end();
    this.streams.add(stream);
    return () => this.streams.delete(stream);
  }

  get size(): number {
    return this.streams.size;
  }

  private apply(control: StreamControl): void {
    for (const stream of [...this.streams]) {
      if (stream.userId !== control.userId) continue;
      if (control.kind === 'user-deleted') stream.end();
      else if (control.kind === 'sessions-ended' && (control.sessionIds === 'all' || control.sessionIds.includes(stream.sessionId))) stream.end();
      else if (control.kind === 'roles-changed') stream.setAdmin(control.roles.includes('admin'));
    }
  }
}
