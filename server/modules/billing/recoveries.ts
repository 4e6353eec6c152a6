import type { Kysely, Transaction } from 'kysely';
import { z } from 'zod';
import { FINAL_NOTICE_DAYS, PAYMENT_RETRY_DAYS, type Subscription } from '../../../contract/subscription.js';
import type { transactionDataSchema } from '../../billing/webhooks.js';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import type { Language } from '../../i18n.js';
import { recordActivity } from '../activity/index.js';
import { enqueue, type JobHandler } from '../jobs/index.js';
import { appLink, queueMail, renderMail } from '../mail/index.js';
import type { UsersRepo } from '../users/index.js';
import { countFailedAttempts, endRecovery, markNoticeMailed, openRecovery, openRecoveryOf, recoveryToMail } from './recoveries-repo.js';

/*
 * Failed renewals, mended (issue 46 item 5), as Paddle runs its dunning: when a renewal cannot be charged
 * the subscription goes past due and Paddle tries the saved card again on a schedule (contract's
 * PAYMENT_RETRY_DAYS); a new card settles the open payment at once; when the last try fails Paddle
 * cancels the subscription. The portal follows each failed renewal from its webhooks, mails the customer
 * at the first failure and a day before the last try, and counts each one recovered or lost.
 *
 * Access (the policy in docs/billing.md): while Paddle retries, the subscription keeps its full access
 * (a card can fail for a day; the customer keeps working while they fix it); once Paddle gives up and
 * cancels it, access ends at once, like any other ended subscription.
 */

const DAY_MS = 86_400_000;

/** The job that mails a failed renewal's notices: the first failure's, and the last try's (run then). */
export const RECOVERY_MAIL_JOB = 'payment-recovery-mail';

/** When Paddle tries a renewal first failed at `startedAt` again: each retry of the schedule. */
export function retriesOf(startedAt: Date): Date[] {
  return PAYMENT_RETRY_DAYS.map((days) => new Date(startedAt.getTime() + days * DAY_MS));
}

/** Paddle's next try after `now`, or null once the last has been made. */
export function nextRetryAt(startedAt: Date, now: Date): Date | null {
  return retriesOf(startedAt).find((at) => at.getTime() > now.getTime()) ?? null;
}

/** When the subscription ends if nothing is paid: at Paddle's last try. */
export function recoveryEndsAt(startedAt: Date): Date {
  return retriesOf(startedAt).at(-1) as Date;
}

/** The customer's last warning: FINAL_NOTICE_DAYS before Paddle's last try. */
export function finalNoticeAt(startedAt: Date): Date {
  return new Date(recoveryEndsAt(startedAt).getTime() - FINAL_NOTICE_DAYS * DAY_MS);
}

type TransactionData = z.infer<typeof transactionDataSchema>;

/**
 * A renewal's transaction as a webhook describes it, in the webhook's database transaction: a failed
 * charge opens its recovery (once, with the first mail and the last try's notice queued) or counts a
 * retry; a completed one that had failed ends it recovered; a cancelled one (Paddle gave up) ends it lost.
 * Only renewals are recovered: a checkout's or a plan switch's failed payment changes nothing (Paddle
 * refuses it on the spot).
 */
export async function followRecovery(trx: Transaction<Database>, data: TransactionData, userId: string | null, now: string): Promise<void> {
  if (!data.subscription_id || data.origin !== 'subscription_recurring') return;
  const failures = (data.payments ?? []).filter((payment) => payment.status === 'error').map((payment) => new Date(payment.created_at).getTime());
  if (failures.length === 0) return;
  const startedAt = new Date(Math.min(...failures));
  const lastFailedAt = new Date(Math.max(...failures)).toISOString();
  const amount = Number(data.details.totals.grand_total);
  const subscriptionId = data.subscription_id;
  // The recovery's row as this delivery knows it: open at the first failure, or ended with its outcome.
  const recoveryRow = (outcome: 'open' | 'recovered' | 'lost', endedAt: string | null) => ({
    transaction_id: data.id,
    subscription_id: subscriptionId,
    user_id: userId,
    amount,
    currency_code: data.currency_code,
    started_at: startedAt.toISOString(),
    attempts: failures.length,
    last_failed_at: lastFailedAt,
    first_mail_at: null,
    final_mail_at: null,
    outcome,
    ended_at: endedAt,
  });
  if (data.status === 'past_due') {
    const opened = await openRecovery(trx, recoveryRow('open', null));
    if (!opened) {
      await countFailedAttempts(trx, data.id, failures.length, lastFailedAt);
      return;
    }
    const at = new Date(now);
    await enqueue(trx, at, { kind: RECOVERY_MAIL_JOB, payload: { transactionId: data.id, notice: 'first' }, key: `recovery-mail:first:${data.id}` });
    await enqueue(trx, at, { kind: RECOVERY_MAIL_JOB, payload: { transactionId: data.id, notice: 'final' }, key: `recovery-mail:final:${data.id}`, runAt: finalNoticeAt(startedAt) });
    if (userId) {
      await recordActivity(trx, {
        key: `payment-failed:${data.id}`,
        userId,
        kind: 'payment.failed',
        details: { transactionId: data.id, subscriptionId: data.subscription_id, amount, currencyCode: data.currency_code, endsAt: recoveryEndsAt(startedAt).toISOString() },
        at: startedAt,
      });
    }
    return;
  }
  const outcome = data.status === 'completed' ? 'recovered' : data.status === 'canceled' ? 'lost' : null;
  if (!outcome) return;
  let ended = await endRecovery(trx, data.id, outcome, now);
  if (!ended && outcome === 'recovered') {
    // Paid before the portal heard of the failure (webhooks out of order): counted recovered all the same.
    ended = await openRecovery(trx, recoveryRow(outcome, now));
  }
  if (ended && userId) {
    await recordActivity(trx, {
      key: `payment-${outcome}:${data.id}`,
      userId,
      kind: outcome === 'recovered' ? 'payment.recovered' : 'payment.lost',
      details: { transactionId: data.id, subscriptionId: data.subscription_id, amount, currencyCode: data.currency_code },
      at: new Date(now),
    });
  }
}

/** What the subscription page, the home and support show of an open recovery (contract's `pastDue`). */
export async function pastDueOf(db: Kysely<Database>, subscriptionId: string, now: Date): Promise<Subscription['pastDue']> {
  const open = await openRecoveryOf(db, subscriptionId);
  if (!open) return null;
  const startedAt = new Date(open.started_at);
  return {
    amount: { amount: Number(open.amount), currencyCode: open.currency_code },
    since: startedAt.toISOString(),
    nextRetryAt: nextRetryAt(startedAt, now)?.toISOString() ?? null,
    endsAt: recoveryEndsAt(startedAt).toISOString(),
  };
}

const mailPayload = z.object({ transactionId: z.string(), notice: z.enum(['first', 'final']) });

/**
 * Mails a recovery's notice once, in the customer's language: the amount, what happens next (Paddle's next
 * try, the day the subscription ends if nothing is paid) and a link to update the card. Marked and queued
 * in one transaction with the job's completion; a recovery already ended (the customer paid) mails nothing.
 */
export function recoveryMailJob(deps: { db: Kysely<Database>; clock: Clock; appUrl: string; users: Pick<UsersRepo, 'findById'> }): JobHandler {
  return async (payload, context) => {
    const { transactionId, notice } = mailPayload.parse(payload);
    const pending = await recoveryToMail(deps.db, transactionId, notice);
    const customer = pending?.user_id ? await deps.users.findById(pending.user_id) : undefined;
    await deps.db.transaction().execute(async (trx) => {
      const now = deps.clock.now();
      const row = await recoveryToMail(trx, transactionId, notice);
      if (row && customer && (await markNoticeMailed(trx, transactionId, notice, now.toISOString()))) {
        const language: Language = customer.language === 'de' ? 'de' : 'en';
        const startedAt = new Date(row.started_at);
        const date = (at: Date) => new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' }).format(at);
        const next = nextRetryAt(startedAt, now);
        const values = {
          name: customer.first_name ?? '',
          amount: new Intl.NumberFormat(language, { style: 'currency', currency: row.currency_code }).format(Number(row.amount) / 100),
          next: next ? date(next) : date(recoveryEndsAt(startedAt)),
          endsAt: date(recoveryEndsAt(startedAt)),
          link: appLink(deps.appUrl, language, '/account/payment-options'),
        };
        await queueMail(trx, now, customer.email, renderMail(notice === 'first' ? 'paymentFailed' : 'paymentFinalNotice', language, values));
      }
      await context.markDone(trx);
    });
  };
}
