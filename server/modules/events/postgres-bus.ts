import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { EventBus, holdingsInvalidationOf, invalidationOf, type StreamControl, type StreamEvent } from './bus.js';

/** The one PostgreSQL channel of the portal's events (NOTIFY payloads stay far below its 8000 bytes). */
export const EVENTS_CHANNEL = 'portal_events';
const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 10_000;

type Message = { userId: string; event: StreamEvent } | { control: StreamControl };

/**
 * The event bus shared by every instance on one PostgreSQL database. Each instance holds one connection
 * of its own that `LISTEN`s on the channel and also sends this instance's `NOTIFY`s: statements on one
 * connection run in order, and PostgreSQL delivers notifications in commit order, so every instance hears
 * every event, each user's in the order they were published. An instance delivers its own events to its
 * streams when it hears them back, like anyone else's: one path, one order.
 *
 * A lost connection is opened again with backoff (readiness says `events` meanwhile); what is published
 * in between waits for it, and what others published in between is missed: the browser's live provider
 * refetches when its stream reconnects, so a page is at most stale until then.
 *
 * What the instance keeps (server/kept.ts) must not outlive a message it missed: it forgets everything
 * when the connection is lost and again when it is back, and keeps nothing while `connected` is false.
 * Its own invalidations it applies at once, not when it hears them back: the instance that ended a
 * session refuses its token from the very next request. Another instance refuses it once it hears the
 * notification (tests/api/several-instances.test.ts measures how long that takes).
 */
export class PostgresEventBus extends EventBus {
  private client: pg.Client | undefined;
  private ready = false;
  private closing = false;
  private backoff = RECONNECT_MIN_MS;
  private pending: string[] = [];
  private sending: Promise<void> = Promise.resolve();
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly connectionString: string,
    private readonly log: FastifyBaseLogger,
  ) {
    super();
  }

  override publish(userId: string, event: StreamEvent): void {
    const invalidation = holdingsInvalidationOf(userId, event);
    if (invalidation) this.forget(invalidation);
    this.send({ userId, event });
  }

  override announce(control: StreamControl): void {
    const invalidation = invalidationOf(control);
    if (invalidation) this.forget(invalidation);
    this.send({ control });
  }

  override get connected(): boolean {
    return this.ready;
  }

  /**
   * Once what waits has been sent: each NOTIFY commits on its own, so PostgreSQL delivers it to every
   * listening instance from then on. Without a connection nothing is awaited (what waits goes once one is
   * back); a sign-out is not held up by the bus.
   */
  override async sent(): Promise<void> {
    if (this.ready) await this.sending;
  }

  override async start(): Promise<void> {
    await this.connect();
  }

  override async close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.reconnectTimer);
    await this.sending.catch(() => undefined);
    const client = this.client;
    this.client = undefined;
    this.ready = false;
    await client?.end().catch(() => undefined);
  }

  private send(message: Message): void {
    this.pending.push(JSON.stringify(message));
    this.flush();
  }

  /** Sends what waits, one NOTIFY after another on the listening connection (their order is kept). */
  private flush(): void {
    this.sending = this.sending.then(async () => {
      while (this.ready && this.client && this.pending.length > 0) {
        const payload = this.pending[0] as string;
        try {
          await this.client.query('select pg_notify($1, $2)', [EVENTS_CHANNEL, payload]);
          this.pending.shift();
        } catch (error) {
          // The connection broke: the message stays first in line for the next connection.
          this.log.warn({ err: error }, 'event bus: NOTIFY failed; sent again once reconnected');
          return;
        }
      }
    });
  }

  private receive(payload: string | undefined): void {
    if (!payload) return;
    try {
      const message = JSON.parse(payload) as Message;
      if ('control' in message) this.applyControl(message.control);
      else this.deliver(message.userId, message.event);
    } catch (error) {
      this.log.error({ err: error }, 'event bus: a notification could not be read');
    }
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (notification) => {
      if (notification.channel === EVENTS_CHANNEL) this.receive(notification.payload);
    });
    client.on('error', (error) => {
      this.log.warn({ err: error }, 'event bus: connection lost');
      this.lost(client);
    });
    client.on('end', () => this.lost(client));
    await client.connect();
    await client.query(`LISTEN ${EVENTS_CHANNEL}`);
    if (this.closing) {
      await client.end();
      return;
    }
    this.client = client;
    this.ready = true;
    // Whatever was read while nobody listened may be older than a notification missed meanwhile.
    this.forget({ kind: 'everything' });
    this.backoff = RECONNECT_MIN_MS;
    this.flush();
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.ready = false;
    this.forget({ kind: 'everything' });
    client.end().catch(() => undefined);
    this.reconnect();
  }

  private reconnect(): void {
    if (this.closing) return;
    const delay = this.backoff;
    this.backoff = Math.min(RECONNECT_MAX_MS, this.backoff * 2);
    this.reconnectTimer = setTimeout(() => {
      this.connect().catch((error: unknown) => {
        this.log.warn({ err: error, retryInMs: this.backoff }, 'event bus: reconnecting failed');
        this.reconnect();
      });
    }, delay);
    this.reconnectTimer.unref();
  }
}
