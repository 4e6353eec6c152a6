import { pendingMigrations, type Db } from '../../db/index.js';

export type NotReadyReason = 'shutting-down' | 'database' | 'migrations' | 'worker' | 'events';

/** How long the database may take to answer the probe before the instance counts as not ready. */
const DATABASE_TIMEOUT_MS = 2000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Whether this instance should get traffic (`GET /api/health/ready`, for the load balancer): not while it
 * shuts down, not when the database does not answer, not when the database lacks a migration this code
 * needs (another instance of an older version may still be rolling), not when its job worker does not run,
 * not while its event bus is not connected.
 */
export class Readiness {
  private closing = false;

  constructor(
    private readonly db: Db,
    private readonly running: { worker: () => boolean; events: () => boolean },
  ) {}

  /** From now on the instance drains: the load balancer should send new requests elsewhere. */
  markClosing(): void {
    this.closing = true;
  }

  /** The reasons not to send traffic here; empty when ready. */
  async reasons(): Promise<NotReadyReason[]> {
    if (this.closing) return ['shutting-down'];
    const reasons: NotReadyReason[] = [];
    // Reading the executed migrations is itself the database round trip.
    try {
      if ((await withTimeout(pendingMigrations(this.db), DATABASE_TIMEOUT_MS)).length > 0) reasons.push('migrations');
    } catch {
      reasons.push('database');
    }
    // An instance whose worker does not run would queue mail that only other instances send.
    if (!this.running.worker()) reasons.push('worker');
    // Nor one whose streams cannot hear the other instances' events (PostgreSQL's LISTEN connection is down).
    if (!this.running.events()) reasons.push('events');
    return reasons;
  }
}
