import type { AnalyticsEvent } from '../../../contract/analytics.js';
import type { PortalEvent } from '../../../contract/events.js';

export type StreamEvent = PortalEvent | AnalyticsEvent;
type Listener = (event: StreamEvent) => void;

/**
 * What changes who may hear what, announced to every open stream's owner: sessions that ended (their
 * streams close), a user deleted (all their streams close), roles changed (admin events follow at once),
 * and a user's streams opening and closing on any instance (the bound per user, ./streams.ts). Also what
 * changes what instances keep without a stream's owner hearing of it: an account's row, roles or links
 * changed (its signed-in user is read again), what a user holds changed by a write that tells no stream
 * (their own subscription action, a licence returned), a release published (everyone's upgrade price and
 * the builds the desktop names).
 */
export type StreamControl =
  | { kind: 'sessions-ended'; userId: string; sessionIds: string[] | 'all' }
  | { kind: 'user-deleted'; userId: string }
  | { kind: 'roles-changed'; userId: string; roles: string[] }
  | { kind: 'account-changed'; userId: string }
  | { kind: 'holdings-changed'; userId: string }
  | { kind: 'releases-changed' }
  | { kind: 'stream-opened'; userId: string; streamId: string }
  | { kind: 'stream-closed'; userId: string; streamId: string };
type ControlListener = (control: StreamControl) => void;

/**
 * What makes an instance forget what it keeps (server/kept.ts; issue 45): the signed-in user and session
 * (sessions ended, the account deleted, changed or given other roles), what a user holds (their
 * subscription, licences or access changed: every event of theirs about a subscription, a payment or a
 * licence says so), what everyone's answers depend on (a release published), and everything when the bus
 * may have missed a message (PostgreSQL's listening connection lost, or back).
 */
type InvalidatingControl = Extract<StreamControl, { kind: 'sessions-ended' | 'user-deleted' | 'roles-changed' | 'account-changed' | 'holdings-changed' | 'releases-changed' }>;
export type Invalidation = InvalidatingControl | { kind: 'everything' };
type InvalidationListener = (invalidation: Invalidation) => void;

const INVALIDATING = new Set<StreamControl['kind']>(['sessions-ended', 'user-deleted', 'roles-changed', 'account-changed', 'holdings-changed', 'releases-changed']);
const HOLDINGS_EVENTS = new Set<StreamEvent['type']>(['subscription', 'transaction', 'licence']);

function invalidates(control: StreamControl): control is InvalidatingControl {
  return INVALIDATING.has(control.kind);
}

/** The invalidation a control message carries, if any. */
export function invalidationOf(control: StreamControl): Invalidation | null {
  return invalidates(control) ? control : null;
}

/** The invalidation a user's event carries: their subscription, a payment or a licence changed what they hold. */
export function holdingsInvalidationOf(userId: string, event: StreamEvent): Invalidation | null {
  return HOLDINGS_EVENTS.has(event.type) ? { kind: 'holdings-changed', userId } : null;
}

/** The topic every signed-in admin's stream also listens to (the dashboard's live counters). */
export const ADMINS = 'role:admin';

/**
 * Who is listening for changes to which user's things, in this process. A change is published after
 * the database transaction that made it has committed, so a listener that refetches sees it. This bus
 * delivers within the process: SQLite means one instance. On PostgreSQL every instance shares one
 * through `LISTEN`/`NOTIFY` (./postgres-bus.ts), which publishes to all and delivers what it hears here.
 *
 * What an instance keeps is forgotten through the same messages (`onInvalidation`): before a control
 * message's listeners hear it and before a user's event reaches their streams, so a screen that
 * refetches on the event never gets the kept answer from before it. The instance that announces or
 * publishes forgets at once, before the call returns (./postgres-bus.ts does not wait to hear its own).
 */
export class EventBus {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly controls = new Set<ControlListener>();
  private readonly invalidations = new Set<InvalidationListener>();

  /** Hears every control message (the stream registry). */
  onControl(listener: ControlListener): () => void {
    this.controls.add(listener);
    return () => this.controls.delete(listener);
  }

  /** Hears every invalidation, this instance's at once and other instances' when they arrive (what instances keep). */
  onInvalidation(listener: InvalidationListener): () => void {
    this.invalidations.add(listener);
    return () => this.invalidations.delete(listener);
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

  /** Resolves once what was announced and published so far has left for every instance (within one process: at once). */
  async sent(): Promise<void> {}

  /** Whether events reach every instance's streams (readiness); always so within one process. */
  get connected(): boolean {
    return true;
  }

  async start(): Promise<void> {}

  async close(): Promise<void> {}

  /** Hands an event to this process's listeners of `userId`, once what is kept of what they hold is forgotten. */
  protected deliver(userId: string, event: StreamEvent): void {
    const invalidation = holdingsInvalidationOf(userId, event);
    if (invalidation) this.forget(invalidation);
    for (const listener of this.listeners.get(userId) ?? []) listener(event);
  }

  protected applyControl(control: StreamControl): void {
    const invalidation = invalidationOf(control);
    if (invalidation) this.forget(invalidation);
    for (const listener of this.controls) listener(control);
  }

  /** Tells this instance's keepers to forget; idempotent, so hearing one's own message again costs only a read. */
  protected forget(invalidation: Invalidation): void {
    for (const listener of this.invalidations) listener(invalidation);
  }

  /** How many streams are open: for tests and the health of a long-running server. */
  get size(): number {
    let count = 0;
    for (const forUser of this.listeners.values()) count += forUser.size;
    return count;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The event bus. A test that writes to the database behind the app's back (a state no route makes)
     * announces it here, as the app's own writers do after their commit, so what the instance keeps follows.
     */
    bus: EventBus;
  }
}
