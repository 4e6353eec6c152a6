import type { FastifyBaseLogger } from 'fastify';

/**
 * Work that must not hold up the answer: the mail of a password reset or a verification resend, which
 * happens only for a real account, would otherwise tell by its timing whether an address is registered.
 * Failures are logged; `idle()` waits for what is under way (the development mailbox and shutdown use it).
 */
export class BackgroundTasks {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly log: FastifyBaseLogger) {}

  /**
   * The task starts on the next turn of the event loop (`setImmediate`), after the answer has been written:
   * started at once, its synchronous part (the SQLite write, rendering the mail) ran before the answer and
   * showed in its timing.
   */
  run(name: string, task: () => Promise<void>): void {
    const running: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .catch((error: unknown) => this.log.error({ err: error, task: name }, 'background task failed'))
      .finally(() => this.pending.delete(running));
    this.pending.add(running);
  }

  /** Tasks under way (the metrics' `portal_background_tasks`). */
  get size(): number {
    return this.pending.size;
  }

  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** What runs after the answer; tests wait for it with `idle()`. */
    background: BackgroundTasks;
  }
}
