import type { AnalyticsEvent } from '../../../contract/analytics.js';
import type { PortalEvent } from '../../../contract/events.js';

export type StreamEvent = PortalEvent | AnalyticsEvent;
type Listener = (event: StreamEvent) => void;

/**
 * What changes who may hear what, announced to every open stream's owner: sessions that ended (their
 * streams close), a user deleted (all their streams close), roles changed (admin events follow at once),
 * and a user's streams opening and closing on any instance (the bound per user, ./streams.ts).
 */
export type StreamControl =
  | { kind: 'sessions-ended'; userId: string; sessionIds: string[] | 'all' }
  | { kind: 'user-deleted'; userId: string }
  | { kind: 'roles-changed'; userId: string; roles: string[] }
  | { kind: 'stream-opened'; userId: string; streamId: string }
  | { kind: 'stream-closed'; userId: string; streamId: string };
type ControlListener = (control: StreamControl) => void;

/** The topic every signed-in admin's stream also listens to (the dashboard's live counters). */
export const ADMINS = 'role:admin';

/**
 * Who is listening for changes to which user's things, in this process. A change is published after
 * the database transaction that made it has committed, so a listener that refetches sees it. This bus
 * delivers within the process: SQLite means one instance. On PostgreSQL every instance shares one
 * through `LISTEN`/`NOTIFY` (./postgres-bus.ts), which publishes to all and delivers what it hears here.
 */
export class EventBus {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly controls = new Set<ControlListener>();

  /** Hears every control message (the stream registry). */
  onControl(listener: ControlListener): () => void {
    this.controls.add(listener);
    return () => this.controls.delete(listener);
  }

  announce(control: StreamControl): void {
    this.applyControl(control);
  }

  subscribe(userId: string, listener: Listener): () => void {
    const forUser = this.listeners.get(userId) ?? new Set<Listener>();
    forUser.add(listener);
    this.listeners.set(userId, forUser);
    return () => {
      forUser.delete(listener);
      if (forUser.size === 0) this.listeners.delete(userId);
    };
  }

  publish(userId: string, event: StreamEvent): void {
    this.deliver(userId, event);
  }

  /** Whether events reach every instance's streams (readiness); always so within one process. */
  get connected(): boolean {
    return true;
  }

  async start(): Promise<void> {}

  async close(): Promise<void> {}

  /** Hands an event to this process's listeners of `userId`. */
  protected deliver(userId: string, event: StreamEvent): void {
    for (const listener of this.listeners.get(userId) ?? []) listener(event);
  }

  protected applyControl(control: StreamControl): void {
    for (const listener of this.controls) listener(control);
  }

  /** How many streams are open: for tests and the health of a long-running server. */
  get size(): number {
    let count = 0;
    for (const forUser of this.listeners.values()) count += forUser.size;
    return count;
  }
}
