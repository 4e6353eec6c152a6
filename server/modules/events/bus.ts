import type { AnalyticsEvent } from '../../../contract/analytics.js';
import type { PortalEvent } from '../../../contract/events.js';

export type StreamEvent = PortalEvent | AnalyticsEvent;
type Listener = (event: StreamEvent) => void;

/** The topic every signed-in admin's stream also listens to (the dashboard's live counters). */
export const ADMINS = 'role:admin';

/**
 * Who is listening for changes to which user's things, in this process. A change is published after
 * the database transaction that made it has committed, so a listener that refetches sees it.
 */
export class EventBus {
  private readonly listeners = new Map<string, Set<Listener>>();

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
    for (const listener of this.listeners.get(userId) ?? []) listener(event);
  }

  /** How many streams are open: for tests and the health of a long-running server. */
  get size(): number {
    let count = 0;
    for (const forUser of this.listeners.values()) count += forUser.size;
    return count;
  }
}
