import { randomUUID } from 'node:crypto';
import { ApiError, type Paddle } from '@paddle/paddle-node-sdk';
import type { Kysely, Transaction } from 'kysely';
import { callPaddle } from '../../billing/paddle.js';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { translate, type Language } from '../../i18n.js';
import { type EventBus } from '../events/index.js';
import { z } from 'zod';
import { enqueue, type JobContext, type JobQueue } from '../jobs/index.js';
import { recordActivity } from '../activity/index.js';
import { queueMail, appLink, renderMail } from '../mail/index.js';
import type { UsersRepo } from '../users/index.js';
import { followAdjustment, insertRefund, markMailed, markRequested, pendingRefund, recordAttemptFailed, refundOfPayment, refundToMail } from './refunds-repo.js';
import { rememberSubscription } from './subscriptions-repo.js';
import { advanceRefundStatus, markRefundPending, payerOf } from './transactions-repo.js';

/** Spec section 9: a purchase can be refunded within 14 days of its (first) payment. */
export const REFUND_WINDOW_MS = 14 * 24 * 60 * 60 * 1000;
/** Tries before a refund is kept as failed for an admin to look at (the job queue's backoff between them). */
const MAX_ATTEMPTS = 6;

/** Jobs of the refund runner: ask Paddle for a recorded refund, end a duplicate subscription, mail a refund. */
export const REFUND_JOB = 'refund';
export const CANCEL_DUPLICATE_JOB = 'cancel-duplicate';
export const REFUND_MAIL_JOB = 'refund-mail';
const refundKey = (refundId: string) => `refund:${refundId}`;

export type RefundReason = 'duplicate' | 'customer';

export interface RefundDeps {
  db: Kysely<Database>;
  paddle: Paddle | null;
  clock: Clock;
  appUrl: string;
  bus: EventBus;
  jobs: JobQueue;
  /** Whom a refund's mail goes to, in which language. */
  users: Pick<UsersRepo, 'findById'>;
}

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Records that `transactionId` is to be refunded in full, in the caller's database transaction (the one
 * that decided it), so the decision, the intent and the job that carries it out commit together. One
 * refund per transaction (unique): a repeated decision changes nothing. Returns whether this call recorded it.
 */
export async function recordRefund(
  db: Db,
  refund: {
    transactionId: string;
    userId: string | null;
    reason: RefundReason;
    subscriptionId?: string | null;
    licenceId?: string | null;
    /** The perpetual release the payment bought; null for a subscription's payment. */
    release?: string | null;
    amount: number;
    currencyCode: string;
    at: string;
  },
  /** The customer's request asks Paddle itself right after (`refundNow`); the workers wait, unless it dies. */
  options: { heldForRequest?: boolean } = {},
): Promise<boolean> {
  const id = randomUUID();
  const recorded = await insertRefund(db, {
    id,
    transaction_id: refund.transactionId,
    user_id: refund.userId,
    reason: refund.reason,
    subscription_id: refund.subscriptionId ?? null,
    licence_id: refund.licenceId ?? null,
    release: refund.release ?? null,
    status: 'pending',
    adjustment_id: null,
    amount: refund.amount,
    currency_code: refund.currencyCode,
    attempts: 0,
    last_error: null,
    mailed_at: null,
    created_at: refund.at,
    updated_at: refund.at,
  });
  if (!recorded) return false;
  await markRefundPending(db, refund.transactionId);
  await enqueue(db, new Date(refund.at), { kind: REFUND_JOB, payload: { refundId: id }, key: refundKey(id), maxAttempts: MAX_ATTEMPTS, ...options });
  return true;
}

/** Queues the immediate cancellation of a subscription found to be a duplicate, in the transaction that marked it. */
export async function queueDuplicateCancellation(db: Db, subscriptionId: string, at: string): Promise<void> {
  await enqueue(db, new Date(at), { kind: CANCEL_DUPLICATE_JOB, payload: { subscriptionId }, key: `cancel:${subscriptionId}` });
}

/** Writes a purchase decision to the account's activity log; `actorId` null is the portal itself (a webhook's decision). */
export async function auditPurchase(db: Db, entry: { actorId: string | null; targetId: string; action: 'purchase.duplicate_undone' | 'purchase.refunded'; details: Record<string, unknown>; at: string }) {
  await recordActivity(db, { userId: entry.targetId, actorId: entry.actorId, kind: entry.action, details: entry.details, at: entry.at });
}

/** Paddle's adjustment statuses in the portal's words; a later state never goes back to an earlier one. */
const ADJUSTMENT_STATES: Record<string, 'requested' | 'approved' | 'rejected'> = {
  pending_approval: 'requested',
  approved: 'approved',
  rejected: 'rejected',
  reversed: 'rejected',
};

/**
 * An `adjustment.created` or `adjustment.updated` webhook: the refund's state follows Paddle's (pending
 * approval, approved, rejected), on the portal's refund record and on the payment. A refund made outside
 * the portal (in Paddle's dashboard) still marks the payment. Returns the owner, for their event stream.
 */
export async function applyAdjustment(db: Db, data: { id: string; action: string; transaction_id: string; status: string }, at: string): Promise<string | null> {
  if (data.action !== 'refund') return null;
  const state = ADJUSTMENT_STATES[data.status];
  if (!state) return null;
  // Only forward: requested -> approved | rejected; an older event arriving late changes nothing.
  await followAdjustment(db, data.transaction_id, { state, adjustmentId: data.id });
  await advanceRefundStatus(db, data.transaction_id, state === 'requested' ? 'pending' : state);
  // Paddle has the refund (asked by the portal, or made in Paddle's dashboard): the customer's mail, once.
  const refund = await refundOfPayment(db, data.transaction_id);
  if (refund && refund.mailed_at === null && (refund.status === 'requested' || refund.status === 'approved')) {
    await enqueue(db, new Date(at), { kind: REFUND_MAIL_JOB, payload: { refundId: refund.id }, key: `refund-mail:${refund.id}` });
  }
  return payerOf(db, data.transaction_id);
}

const isCanceledAlready = (error: unknown) => error instanceof ApiError && error.code === 'subscription_update_when_canceled';

const refundPayload = z.object({ refundId: z.string() });

/**
 * Carries out what the portal decided, as jobs (server/modules/jobs/queue.ts) written with the decision:
 * duplicate subscriptions cancelled at once, recorded refunds asked of Paddle (a full refund adjustment)
 * after cancelling the subscription they end, and the customer's mail once Paddle has the refund.
 * Before creating a refund it asks Paddle whether one exists already, so a job run again after a lost
 * answer or a crash never refunds twice; a job is claimed by one instance at a time.
 */
export class RefundRunner {
  constructor(private readonly deps: RefundDeps) {}

  /** Registers the runner's jobs with the queue. */
  register(jobs: JobQueue): void {
    jobs.handle(REFUND_JOB, async (payload) => this.refund(refundPayload.parse(payload).refundId));
    jobs.handle(CANCEL_DUPLICATE_JOB, async (payload) => this.cancelNow(z.object({ subscriptionId: z.string() }).parse(payload).subscriptionId));
    jobs.handle(REFUND_MAIL_JOB, async (payload, context) => this.mailRefund(refundPayload.parse(payload).refundId, context));
  }

  /**
   * Asks Paddle now, in the customer's request, for the refund recorded for a payment, so the answer can
   * show it requested. A failure is left to the job's retries.
   */
  async refundTransaction(transactionId: string): Promise<void> {
    const refund = await refundOfPayment(this.deps.db, transactionId);
    if (refund) await this.refundNow(refund.id);
  }

  async refundNow(refundId: string): Promise<void> {
    try {
      await this.deps.jobs.runKeyNow(refundKey(refundId));
    } catch {
      // Logged by the queue and kept for its next try.
    }
  }

  /** Asks Paddle for one recorded refund; a failure is counted on the refund and thrown for the job to retry. */
  async refund(refundId: string): Promise<void> {
    const { db, clock } = this.deps;
    const refund = await pendingRefund(db, refundId);
    if (!refund) return;
    try {
      if (refund.subscription_id) await this.cancelNow(refund.subscription_id);
      const adjustmentId = await this.refundAtPaddle(refund.transaction_id, refund.reason);
      await db.transaction().execute(async (trx) => {
        const now = clock.now();
        const moved = await markRequested(trx, refund.id, { adjustmentId, attempts: refund.attempts + 1, at: now.toISOString() });
        if (moved && refund.user_id) {
          await enqueue(trx, now, { kind: REFUND_MAIL_JOB, payload: { refundId: refund.id }, key: `refund-mail:${refund.id}` });
        }
      });
      this.deps.jobs.nudge();
    } catch (error) {
      const attempts = refund.attempts + 1;
      await recordAttemptFailed(db, refund.id, {
        status: attempts >= MAX_ATTEMPTS ? 'failed' : 'pending',
        attempts,
        lastError: error instanceof Error ? error.message.slice(0, 500) : String(error).slice(0, 500),
        at: clock.now().toISOString(),
      });
      throw error;
    } finally {
      if (refund.user_id) this.deps.bus.publish(refund.user_id, { type: 'transaction', id: refund.transaction_id });
    }
  }

  /** Ends a subscription now (Paddle's immediate cancellation); one already cancelled is read back. */
  private async cancelNow(subscriptionId: string): Promise<void> {
    const subscription = await callPaddle(
      this.deps.paddle,
      async (paddle) => {
        try {
          return await paddle.subscriptions.cancel(subscriptionId, { effectiveFrom: 'immediately' });
        } catch (error) {
          if (isCanceledAlready(error)) return paddle.subscriptions.get(subscriptionId);
          throw error;
        }
      },
      'SUBSCRIPTION_NOT_FOUND',
    );
    const userId = await rememberSubscription(this.deps.db, subscription);
    if (userId) this.deps.bus.publish(userId, { type: 'subscription', id: subscriptionId });
  }

  /** The id of the full refund of `transactionId` at Paddle: one made before (a retry), or a new one. */
  private async refundAtPaddle(transactionId: string, reason: RefundReason): Promise<string> {
    return callPaddle(this.deps.paddle, async (paddle) => {
      for await (const adjustment of paddle.adjustments.list({ transactionId: [transactionId], action: 'refund' })) {
        if (adjustment.status !== 'rejected' && adjustment.status !== 'reversed') return adjustment.id;
      }
      const created = await paddle.adjustments.create({
        action: 'refund',
        type: 'full',
        transactionId,
        reason: reason === 'duplicate' ? 'Duplicate purchase: a second checkout completed for what the customer already bought' : 'Customer cancelled within the 14-day refund period',
      });
      return created.id;
    });
  }

  /** One mail per refund, in the customer's language, once Paddle has it: marked and queued in one transaction. */
  private async mailRefund(refundId: string, context: JobContext): Promise<void> {
    const { db, clock, users } = this.deps;
    await db.transaction().execute(async (trx) => {
      const row = await refundToMail(trx, refundId);
      // The customer as the users module knows them; a refund of no (or a deleted) account mails no one.
      const customer = row?.user_id ? await users.findById(row.user_id) : undefined;
      if (row && customer) {
        const now = clock.now();
        const language: Language = customer.language === 'de' ? 'de' : 'en';
        const amount = new Intl.NumberFormat(language, { style: 'currency', currency: row.currency_code }).format(Number(row.amount) / 100);
        // What the payment bought, in the reader's words: the release, or the subscription.
        const product = row.release ? translate(language, 'mail.productRelease', { release: row.release }) : translate(language, 'mail.productSubscription');
        const values = {
          name: customer.first_name ?? '',
          amount,
          product,
          link: appLink(this.deps.appUrl, language, '/account/purchase-history'),
          access: translate(language, row.subscription_id ? 'mail.refundAccessSubscription' : 'mail.refundAccessLicence'),
        };
        await markMailed(trx, row.id, now.toISOString());
        await queueMail(trx, now, customer.email, renderMail(row.reason === 'duplicate' ? 'duplicateRefunded' : 'refundConfirmed', language, values));
      }
      await context.markDone(trx);
    });
    this.deps.jobs.nudge();
  }
}
