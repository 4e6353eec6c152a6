import type { Kysely } from 'kysely';
import type { Subscription } from '../../../contract/subscription.js';
import type { Database } from '../../db/schema.js';
import { pastDueOf } from './recoveries.js';
import { SUBSCRIPTION_REFUND, usedRefunds } from './refund-once.js';
import { REFUND_WINDOW_MS } from './refunds.js';
import { currentSubscriptionRow } from './subscriptions-repo.js';
import { completedPaymentsOf } from './transactions-repo.js';

/**
 * `GET /subscription/user`: the user's subscription: the live one, else the latest (a subscription being
 * undone as a duplicate is never the user's), with the refund its cancellation would make now (none once
 * the customer's one refund is used; for `staff`, the refund an admin may still make), its pause and an
 * overdue renewal Paddle is retrying.
 */
export async function subscriptionOf(db: Kysely<Database>, userId: string, now: Date, options: { staff?: boolean } = {}): Promise<Subscription | null> {
  const row = await currentSubscriptionRow(db, userId);
  if (!row) return null;
  const ended = row.status === 'canceled';
  const [used, window, pastDue] = await Promise.all([
    usedRefunds(db, userId).then((scopes) => scopes.has(SUBSCRIPTION_REFUND)),
    ended ? null : refundOffer(db, row.id, now),
    ended ? null : pastDueOf(db, row.id, now),
  ]);
  const pause =
    row.scheduled_change_action === 'pause' && row.scheduled_change_at
      ? { startsAt: row.scheduled_change_at, resumesAt: row.scheduled_resume_at }
      : row.status === 'paused'
        ? { startsAt: row.paused_at ?? row.current_period_ends_at ?? now.toISOString(), resumesAt: row.scheduled_change_action === 'resume' ? row.scheduled_change_at : null }
        : null;
  return {
    id: row.id,
    status: row.status as Subscription['status'],
    priceId: row.price_id,
    interval: row.billing_interval,
    currencyCode: row.currency_code,
    currentPeriod:
      row.current_period_starts_at && row.current_period_ends_at ? { startsAt: row.current_period_starts_at, endsAt: row.current_period_ends_at } : null,
    nextBilledAt: row.next_billed_at,
    trialEndsAt: row.trial_ends_at,
    scheduledChange: row.scheduled_change_action && row.scheduled_change_at ? { action: row.scheduled_change_action, effectiveAt: row.scheduled_change_at } : null,
    canceledAt: row.canceled_at,
    refund: used && !options.staff ? null : window,
    refundUsed: used,
    pause,
    pastDue,
  };
}

/**
 * Spec section 9: cancelling within 14 days of a subscription's first payment refunds it. The offer (its
 * deadline and what it refunds: every paid, unrefunded payment of the subscription), or null when the
 * first payment is older than 14 days or nothing was paid yet (a trial ends without a charge anyway).
 */
export async function refundOffer(db: Kysely<Database>, subscriptionId: string, now: Date): Promise<Subscription['refund']> {
  const payments = await completedPaymentsOf(db, subscriptionId, { paid: true });
  if (payments.length === 0) return null;
  const first = Math.min(...payments.map((payment) => Date.parse(payment.billed_at ?? payment.created_at)));
  const until = first + REFUND_WINDOW_MS;
  const open = payments.filter((payment) => payment.refund_status === null);
  if (until <= now.getTime() || open.length === 0) return null;
  const currencyCode = open[0]?.currency_code as string;
  return { until: new Date(until).toISOString(), amount: { amount: open.reduce((sum, payment) => sum + Number(payment.grand_total), 0), currencyCode } };
}
