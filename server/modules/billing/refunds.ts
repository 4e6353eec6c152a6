import { randomUUID } from 'node:crypto';
import { ApiError, type Paddle } from '@paddle/paddle-node-sdk';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { BackgroundTasks } from '../../background.js';
import { callPaddle } from '../../billing/paddle.js';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { translate, type Language } from '../../i18n.js';
import type { EventBus } from '../events/bus.js';
import type { Mailer } from '../mail/mailer.js';
import { appLink, renderMail } from '../mail/templates.js';
import { rememberSubscription } from './subscriptions.js';

/** Spec section 9: a purchase can be refunded within 14 days of its (first) payment. */
export const REFUND_WINDOW_MS = 14 * 24 * 60 * 60 * 1000;
/** Tries before a refund is kept as failed for an admin to look at; retries back off from 15 s doubling. */
const MAX_ATTEMPTS = 6;
const BACKOFF_MS = 15_000;

export type RefundReason = 'duplicate' | 'customer';

export interface RefundDeps {
  db: Kysely<Database>;
  paddle: Paddle | null;
  clock: Clock;
  mailer: Mailer;
  appUrl: string;
  bus: EventBus;
  background: BackgroundTasks;
  log: FastifyBaseLogger;
}

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Records that `transactionId` is to be refunded in full, in the caller's database transaction (the one
 * that decided it), so the decision and the intent commit together. One refund per transaction (unique):
 * a repeated decision changes nothing. Returns whether this call recorded it.
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
): Promise<boolean> {
  const result = await db
    .insertInto('refunds')
    .values({
      id: randomUUID(),
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
    })
    .onConflict((oc) => oc.column('transaction_id').doNothing())
    .executeTakeFirst();
  if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) return false;
  await db.updateTable('transactions').set({ refund_status: 'pending' }).where('id', '=', refund.transactionId).execute();
  return true;
}

/** Writes an entry of the admin audit trail; `actorId` null is the portal itself (a webhook's decision). */
export async function auditPurchase(db: Db, entry: { actorId: string | null; targetId: string; action: 'purchase.duplicate_undone' | 'purchase.refunded'; details: object; at: string }) {
  await db
    .insertInto('audit_log')
    .values({ id: randomUUID(), actor_id: entry.actorId, target_user_id: entry.targetId, action: entry.action, details: JSON.stringify(entry.details), created_at: entry.at })
    .execute();
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
export async function applyAdjustment(db: Db, data: { id: string; action: string; transaction_id: string; status: string }): Promise<string | null> {
  if (data.action !== 'refund') return null;
  const state = ADJUSTMENT_STATES[data.status];
  if (!state) return null;
  const final = state === 'approved' || state === 'rejected';
  // Only forward: requested -> approved | rejected; an older event arriving late changes nothing.
  await db
    .updateTable('refunds')
    .set({ status: state, adjustment_id: data.id })
    .where('transaction_id', '=', data.transaction_id)
    .where((eb) => (final ? eb('status', 'not in', ['approved', 'rejected']) : eb('status', 'in', ['pending', 'requested', 'failed'])))
    .execute();
  const paymentState = state === 'requested' ? 'pending' : state;
  await db
    .updateTable('transactions')
    .set({ refund_status: paymentState })
    .where('id', '=', data.transaction_id)
    .where((eb) => (final ? eb.or([eb('refund_status', 'is', null), eb('refund_status', '=', 'pending')]) : eb('refund_status', 'is', null)))
    .execute();
  const owner = await db.selectFrom('transactions').select('user_id').where('id', '=', data.transaction_id).executeTakeFirst();
  return owner?.user_id ?? null;
}

const isCanceledAlready = (error: unknown) => error instanceof ApiError && error.code === 'subscription_update_when_canceled';

/**
 * Carries out what the portal decided: duplicate subscriptions cancelled at once, recorded refunds asked
 * of Paddle (a full refund adjustment) after cancelling the subscription they end, and the customer's
 * mail once Paddle has the refund. Everything it reads is in the database, so a restart picks up where a
 * crash left off; before creating a refund it asks Paddle whether one exists already, so a retry after
 * a lost answer never refunds twice. One sweep at a time per process; a kick during a sweep runs another.
 */
export class RefundRunner {
  private sweeping = false;
  private again = false;

  constructor(private readonly deps: RefundDeps) {}

  /** Runs a sweep in the background (after a webhook or a request has committed a decision). */
  kick(): void {
    if (this.sweeping) {
      this.again = true;
      return;
    }
    this.sweeping = true;
    this.deps.background.run('refunds', async () => {
      try {
        do {
          this.again = false;
          await this.sweep();
        } while (this.again);
      } finally {
        this.sweeping = false;
      }
    });
  }

  async sweep(): Promise<void> {
    const { db } = this.deps;
    const duplicates = await db
      .selectFrom('subscriptions')
      .select('id')
      .where('duplicate_of', 'is not', null)
      .where('status', '!=', 'canceled')
      .execute();
    for (const { id } of duplicates) {
      try {
        await this.cancelNow(id);
      } catch (error) {
        this.deps.log.error({ err: error, subscriptionId: id }, 'cancelling a duplicate subscription failed; retried on the next sweep');
      }
    }
    const pending = await db.selectFrom('refunds').selectAll().where('status', '=', 'pending').orderBy('created_at').limit(100).execute();
    const now = this.deps.clock.now().getTime();
    for (const refund of pending) {
      const due = Date.parse(refund.updated_at) + (refund.attempts === 0 ? 0 : BACKOFF_MS * 2 ** (refund.attempts - 1));
      if (due > now) continue;
      await this.refund(refund.id);
    }
    await this.mailRefunds();
  }

  /** Asks Paddle now for the refund recorded for a payment (a customer's request, answered at once). */
  async refundTransaction(transactionId: string): Promise<void> {
    const refund = await this.deps.db.selectFrom('refunds').select('id').where('transaction_id', '=', transactionId).executeTakeFirst();
    if (refund) await this.refund(refund.id);
  }

  /** Asks Paddle for one recorded refund now; a failure is kept for the next sweep (bounded tries). */
  async refund(refundId: string): Promise<void> {
    const { db, clock } = this.deps;
    const refund = await db.selectFrom('refunds').selectAll().where('id', '=', refundId).where('status', '=', 'pending').executeTakeFirst();
    if (!refund) return;
    try {
      if (refund.subscription_id) await this.cancelNow(refund.subscription_id);
      const adjustmentId = await this.refundAtPaddle(refund.transaction_id, refund.reason);
      await db
        .updateTable('refunds')
        .set({ status: 'requested', adjustment_id: adjustmentId, attempts: refund.attempts + 1, last_error: null, updated_at: clock.now().toISOString() })
        .where('id', '=', refund.id)
        .where('status', '=', 'pending')
        .execute();
    } catch (error) {
      const attempts = refund.attempts + 1;
      this.deps.log.error({ err: error, refundId: refund.id, attempts }, 'refund failed');
      await db
        .updateTable('refunds')
        .set({
          status: attempts >= MAX_ATTEMPTS ? 'failed' : 'pending',
          attempts,
          last_error: error instanceof Error ? error.message.slice(0, 500) : String(error).slice(0, 500),
          updated_at: clock.now().toISOString(),
        })
        .where('id', '=', refund.id)
        .where('status', '=', 'pending')
        .execute();
    }
    if (refund.user_id) this.deps.bus.publish(refund.user_id, { type: 'transaction', id: refund.transaction_id });
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

  /** One mail per refund, in the customer's language, once Paddle has it; claimed first so it goes once. */
  private async mailRefunds(): Promise<void> {
    const { db, clock } = this.deps;
    const due = await db
      .selectFrom('refunds')
      .innerJoin('users', 'users.id', 'refunds.user_id')
      .select([
        'refunds.id',
        'refunds.reason',
        'refunds.amount',
        'refunds.currency_code',
        'refunds.subscription_id',
        'refunds.licence_id',
        'refunds.release',
        'users.email',
        'users.first_name',
        'users.language',
      ])
      .where('refunds.mailed_at', 'is', null)
      .where('refunds.status', 'in', ['requested', 'approved'])
      .execute();
    for (const row of due) {
      const claimed = await db
        .updateTable('refunds')
        .set({ mailed_at: clock.now().toISOString() })
        .where('id', '=', row.id)
        .where('mailed_at', 'is', null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0) continue;
      const language: Language = row.language === 'de' ? 'de' : 'en';
      const amount = new Intl.NumberFormat(language, { style: 'currency', currency: row.currency_code }).format(Number(row.amount) / 100);
      // What the payment bought, in the reader's words: the release, or the subscription.
      const product = row.release ? translate(language, 'mail.productRelease', { release: row.release }) : translate(language, 'mail.productSubscription');
      const values = {
        name: row.first_name ?? '',
        amount,
        product,
        link: appLink(this.deps.appUrl, language, '/account/purchase-history'),
        access: translate(language, row.subscription_id ? 'mail.refundAccessSubscription' : 'mail.refundAccessLicence'),
      };
      try {
        await this.deps.mailer.send(row.email, renderMail(row.reason === 'duplicate' ? 'duplicateRefunded' : 'refundConfirmed', language, values));
      } catch (error) {
        // Not sent: released for the next sweep to try again.
        await db.updateTable('refunds').set({ mailed_at: null }).where('id', '=', row.id).execute();
        this.deps.log.error({ err: error, refundId: row.id }, 'refund mail failed');
      }
    }
  }
}
