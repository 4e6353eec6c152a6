import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Dialect } from '../../db/index.js';
import type { Database } from '../../db/schema.js';
import {
  claimJobs,
  countJobsByStatus,
  deleteFinishedJobs,
  deleteJob,
  dueJobs,
  hasDueJob,
  insertJob,
  markJobDone,
  markJobFailed,
  pendingJobWithId,
  pendingJobWithKey,
  scheduleJobRetry,
  type JobCandidates,
  type JobRow as Job,
} from './repo.js';

type Db = Kysely<Database> | Transaction<Database>;

/** What a job's handler gets besides its payload. */
export interface JobContext {
  id: string;
  /** 1 on the first run. */
  attempt: number;
  /**
   * Marks the job done inside the handler's own transaction, so its change and its completion commit
   * together: a crash can then never run it a second time after the change.
   */
  markDone(trx: Transaction<Database>): Promise<void>;
}

/** An error no retry can mend (a mail server refusing the recipient for good): the job fails at once. */
export function isPermanent(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { permanent?: unknown }).permanent === true;
}

export type JobHandler = (payload: unknown, context: JobContext) => Promise<void>;

export interface NewJob {
  kind: string;
  payload: object;
  /** At most one pending or running job per key: deciding the same work twice queues it once. */
  key?: string;
  /** Later than now, e.g. a reminder. */
  runAt?: Date;
  /**
   * The request that queues it runs it itself (`runNow`, `runKeyNow`) to tell its outcome; the workers
   * leave it alone for HELD_FOR_REQUEST_MS, so they do not take it first, and take it after that only if
   * that request died.
   */
  heldForRequest?: boolean;
  maxAttempts?: number;
}

/** How long the workers leave a job to the request that queued it (`heldForRequest`). */
export const HELD_FOR_REQUEST_MS = 60_000;
/** Tries before a job is kept as failed for an admin to look at. */
export const DEFAULT_MAX_ATTEMPTS = 8;
/** Retries back off exponentially from this, with jitter, up to an hour. */
const BACKOFF_BASE_MS = 5_000;
const BACKOFF_MAX_MS = 3_600_000;
/** A claimed job belongs to its instance this long; past it (a killed process) any instance may run it. */
export const LEASE_MS = 5 * 60_000;
/** How many due jobs one instance claims at a time. */
const BATCH = 10;
/** How often an idle worker looks for work that another instance queued or a retry that fell due. */
const POLL_MS = 1_000;
/** Finished jobs stay visible to admins this long. */
const KEEP_FINISHED_MS = 14 * 24 * 3_600_000;

export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const exponential = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
  // Full jitter on the upper half, so retries of many jobs that failed together spread out.
  return Math.round(exponential / 2 + (random() * exponential) / 2);
}

/**
 * Writes a job in the caller's transaction: it commits, or is rolled back, with the change that caused
 * it (transactional outbox). Returns its id, or null when a job with the same key is already pending or
 * running. The caller nudges the worker after the commit (`JobQueue.nudge`); otherwise the next poll finds it.
 */
export async function enqueue(db: Db, now: Date, job: NewJob): Promise<string | null> {
  const id = randomUUID();
  const inserted = await insertJob(db, {
    id,
    kind: job.kind,
    payload: JSON.stringify(job.payload),
    key: job.key ?? null,
    status: 'pending',
    attempts: 0,
    max_attempts: job.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    run_at: (job.runAt ?? (job.heldForRequest ? new Date(now.getTime() + HELD_FOR_REQUEST_MS) : now)).toISOString(),
    locked_until: null,
    locked_by: null,
    last_error: null,
    created_at: now.toISOString(),
    finished_at: null,
  });
  return inserted ? id : null;
}

export interface JobQueueDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  clock: Clock;
  log: FastifyBaseLogger;
}

/**
 * The worker of one instance. It claims due jobs (pending and due, or running past their lease) in one
 * statement: on PostgreSQL the candidate rows are locked with `FOR UPDATE SKIP LOCKED`, so two instances
 * never claim the same job and never wait on each other; SQLite has one writer and one process. A job
 * that throws is retried with exponential backoff and kept as `failed` after its last try.
 *
 * pg-boss and graphile-worker were considered and declined: both are PostgreSQL only, and the same jobs
 * must run on the embedded SQLite; the claim (./repo.ts: `claimJobs` over `dueJobs`) is the one statement they are built around.
 */
export class JobQueue {
  readonly instanceId: string = randomUUID();
  private readonly handlers = new Map<string, JobHandler>();
  private readonly running = new Map<string, Promise<undefined>>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private loop: Promise<void> | undefined;
  private again = false;
  private started = false;
  private stopped = false;
  private failures = 0;
  private queuedSinceAnswer = false;

  constructor(private readonly deps: JobQueueDeps) {}

  /** Registers what runs a kind of job; every instance registers the same handlers. */
  handle(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  /** The kinds of job this instance runs (each needs a name the admin's jobs page can show, in en and de). */
  kinds(): string[] {
    return [...this.handlers.keys()];
  }

  /**
   * Writes a job outside any other change (its own transaction). The worker looks for it once the current
   * answer has gone out (`nudgeQueued`, from the app's onResponse hook), never while the request that
   * queued it is still answering: a forgot-password job for a registered address does more work than one
   * for an unknown address, and that work must not show in the answer's timing.
   */
  async add(job: NewJob): Promise<string | null> {
    const id = await enqueue(this.deps.db, this.deps.clock.now(), job);
    if (id) this.queuedSinceAnswer = true;
    return id;
  }

  /** After an answer has been sent: looks for what `add` queued meanwhile (the 1 s poll would find it too). */
  nudgeQueued(): void {
    if (!this.queuedSinceAnswer) return;
    this.queuedSinceAnswer = false;
    this.nudge();
  }

  /**
   * Runs one job now, in the request that queued it, when the caller needs its outcome (registration
   * learns whether the mail server takes the address). Claimed like any other, so no worker runs it as
   * well; a failure is handled as in the worker (retried later, or failed) and thrown to the caller.
   */
  async runNow(id: string): Promise<void> {
    await this.runClaimedNow(pendingJobWithId(this.deps.db, id));
  }

  /** `runNow` for the pending job holding `key`, if there is one. */
  async runKeyNow(key: string): Promise<void> {
    await this.runClaimedNow(pendingJobWithKey(this.deps.db, key));
  }

  private async runClaimedNow(candidates: JobCandidates): Promise<void> {
    const [job] = await this.claimed(candidates);
    if (!job) return;
    const error = await this.track(job);
    if (error !== undefined) throw error;
  }

  /** Removes a job that will not be wanted any more (its cause was undone). */
  async discard(id: string): Promise<void> {
    await deleteJob(this.deps.db, id);
  }

  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.timer = setInterval(() => this.nudge(), POLL_MS);
    this.timer.unref();
    this.nudge();
  }

  /** Whether this instance's worker takes jobs (readiness). */
  get isRunning(): boolean {
    return this.started && !this.stopped;
  }

  /** Jobs that failed for good since this process started (the metrics' counter reads it). */
  get failedTotal(): number {
    return this.failures;
  }

  /**
   * Looks for due work after the current answer has been written (`setImmediate`): the mail of a reset
   * for a registered address must not be written while the request that queued it is still answering.
   */
  nudge(): void {
    if (this.stopped) return;
    if (this.loop) {
      this.again = true;
      return;
    }
    this.loop = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.drain())
      .catch((error: unknown) => this.deps.log.error({ err: error }, 'job worker: claiming failed'))
      .finally(() => {
        this.loop = undefined;
      });
  }

  private async drain(): Promise<void> {
    do {
      this.again = false;
      while (!this.stopped) {
        const claimed = await this.claim();
        if (claimed.length === 0) break;
        await Promise.all(claimed.map((job) => this.track(job)));
      }
    } while (this.again && !this.stopped);
  }

  /** Runs a claimed job; resolves to its error when it failed. */
  private track(job: Job): Promise<unknown> {
    const run = this.execute(job).finally(() => this.running.delete(job.id));
    this.running.set(job.id, run.then(() => undefined));
    return run;
  }

  /** Claims up to BATCH due jobs for this instance, under a lease. */
  private async claim(): Promise<Job[]> {
    const { db, dialect } = this.deps;
    const nowIso = this.deps.clock.now().toISOString();
    // A job this process still runs is never taken again here, even when a moved test clock ends its lease.
    const busy = [...this.running.keys()];
    // PostgreSQL: FOR UPDATE SKIP LOCKED; SQLite has one writer.
    return this.claimed(dueJobs(db, { nowIso, limit: BATCH, excluding: busy, skipLocked: dialect === 'postgres' }));
  }

  /** Takes the jobs `candidates` selects for this instance, under a lease, counting the attempt. */
  private claimed(candidates: JobCandidates): Promise<Job[]> {
    const leaseEnds = new Date(this.deps.clock.now().getTime() + LEASE_MS).toISOString();
    return claimJobs(this.deps.db, candidates, { instanceId: this.instanceId, leaseEnds });
  }

  private handlerOf(job: Job): JobHandler {
    const handler = this.handlers.get(job.kind);
    if (!handler) throw new Error(`no handler for jobs of kind ${job.kind}`);
    return handler;
  }

  private contextOf(job: Job, onDone: () => void): JobContext {
    return {
      id: job.id,
      attempt: job.attempts,
      markDone: async (trx) => {
        await this.complete(trx, job);
        onDone();
      },
    };
  }

  /** Done: the key is free again, and the payload (an address, a code, a link) is not kept. */
  private async complete(db: Db, job: Job): Promise<void> {
    await markJobDone(db, { id: job.id, instanceId: this.instanceId, finishedAt: this.deps.clock.now().toISOString() });
  }

  /** Runs a claimed job and records the outcome; resolves to the error when it failed (never rejects). */
  private async execute(job: Job): Promise<unknown> {
    const { db, clock, log } = this.deps;
    try {
      const handler = this.handlerOf(job);
      let done = false;
      await handler(JSON.parse(job.payload) as unknown, this.contextOf(job, () => (done = true)));
      if (!done) await this.complete(db, job);
      return undefined;
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
      const final = job.attempts >= job.max_attempts || isPermanent(error);
      log[final ? 'error' : 'warn']({ err: error, jobId: job.id, kind: job.kind, attempt: job.attempts }, final ? 'job failed for good' : 'job failed; retried later');
      if (final) this.failures += 1;
      const now = clock.now();
      const outcome = { id: job.id, instanceId: this.instanceId, lastError: message };
      await (
        final
          ? markJobFailed(db, { ...outcome, finishedAt: now.toISOString() })
          : scheduleJobRetry(db, { ...outcome, runAt: new Date(now.getTime() + retryDelayMs(job.attempts)).toISOString() })
      ).catch((bookkeeping: unknown) => log.error({ err: bookkeeping, jobId: job.id }, 'job worker: recording a failure failed; retried after its lease'));
      return error;
    }
  }

  /** Waits until no job is due or running here (tests, the development mailbox). */
  async idle(): Promise<void> {
    for (;;) {
      if (this.loop) await this.loop;
      if (this.running.size > 0) await Promise.all([...this.running.values()]);
      if (this.stopped || !(await this.hasDueWork())) return;
      this.nudge();
      await this.loop;
    }
  }

  private async hasDueWork(): Promise<boolean> {
    return hasDueJob(this.deps.db, this.deps.clock.now().toISOString());
  }

  /**
   * Shutdown: what is due now (work queued by the last answers) and what runs finishes, bounded by
   * `timeoutMs`; then the worker stops claiming. A job cut off is taken by another instance after its lease.
   */
  async stop(timeoutMs: number): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([this.idle().catch(() => undefined), timeout]);
    this.stopped = true;
    await Promise.race([Promise.all([this.loop, ...this.running.values()]), timeout]);
    clearTimeout(timer);
  }

  /** Removes finished jobs older than two weeks. */
  async prune(): Promise<void> {
    const before = new Date(this.deps.clock.now().getTime() - KEEP_FINISHED_MS).toISOString();
    await deleteFinishedJobs(this.deps.db, before);
  }

  /** Pending and failed counts for the metrics and the admin page. */
  async counts(): Promise<Record<'pending' | 'running' | 'failed', number>> {
    const rows = await countJobsByStatus(this.deps.db);
    const counts = { pending: 0, running: 0, failed: 0 };
    for (const row of rows) counts[row.status as keyof typeof counts] = Number(row.n);
    return counts;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The durable job worker; tests wait for it with `idle()`. */
    jobs: JobQueue;
  }
}
