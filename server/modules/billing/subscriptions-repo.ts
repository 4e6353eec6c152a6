import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database, SubscriptionsTable } from '../../db/schema.js';
import type { Subscription as PaddleSubscription } from '@paddle/paddle-node-sdk';

/** An ISO time from Paddle's, or null. */
export const iso = (value: string | null | undefined) => (value ? new Date(value).toISOString() : null);

/** The user a Paddle customer belongs to, or null. */
export async function ownerOf(db: Kysely<Database>, customerId: string): Promise<string | null> {
  const owner = await db.selectFrom('billing_customers').select('user_id').where('provider_customer_id', '=', customerId).executeTakeFirst();
  return owner?.user_id ?? null;
}


/** A subscription as Paddle last described it, `asOf` the time of that description. */
export interface SubscriptionState {
  id: string;
  customerId: string;
  status: string;
  priceId: string;
  interval: string;
  currencyCode: string;
  periodStartsAt?: string | null;
  periodEndsAt?: string | null;
  nextBilledAt?: string | null;
  trialEndsAt?: string | null;
  scheduledChange: { action: string; effectiveAt: string } | null;
  canceledAt?: string | null;
  createdAt: string;
  asOf: string;
}

/**
 * Writes the local copy of a subscription, from a webhook or from Paddle's answer to a change. One
 * statement decides: the row is written only when this description is not older than the last one.
 */
export async function upsertSubscription(db: Kysely<Database>, state: SubscriptionState): Promise<string | null> {
  const userId = await ownerOf(db, state.customerId);
  const row: Insertable<SubscriptionsTable> = {
    id: state.id,
    customer_id: state.customerId,
    user_id: userId,
    status: state.status,
    price_id: state.priceId,
    billing_interval: state.interval,
    currency_code: state.currencyCode,
    current_period_starts_at: iso(state.periodStartsAt),
    current_period_ends_at: iso(state.periodEndsAt),
    next_billed_at: iso(state.nextBilledAt),
    trial_ends_at: iso(state.trialEndsAt),
    scheduled_change_action: state.scheduledChange?.action ?? null,
    scheduled_change_at: iso(state.scheduledChange?.effectiveAt),
    canceled_at: iso(state.canceledAt),
    created_at: iso(state.createdAt) as string,
    last_event_at: new Date(state.asOf).toISOString(),
  };
  const { id: _id, created_at: _created, ...changes } = row;
  await db
    .insertInto('subscriptions')
    .values(row)
    .onConflict((oc) =>
      oc
        .column('id')
        .doUpdateSet(changes)
        .where('subscriptions.last_event_at', '<=', sql<string>`excluded.last_event_at`),
    )
    .execute();
  return userId;
}

/** Keeps the local copy in step with Paddle's answer to a call (the webhook that follows changes nothing then). */
export async function rememberSubscription(db: Kysely<Database>, subscription: PaddleSubscription): Promise<string | null> {
  const item = subscription.items[0];
  return upsertSubscription(db, {
    id: subscription.id,
    customerId: subscription.customerId,
    status: subscription.status,
    priceId: item?.price?.id ?? '',
    interval: subscription.billingCycle.interval,
    currencyCode: subscription.currencyCode,
    periodStartsAt: subscription.currentBillingPeriod?.startsAt,
    periodEndsAt: subscription.currentBillingPeriod?.endsAt,
    nextBilledAt: subscription.nextBilledAt,
    trialEndsAt: item?.trialDates?.endsAt,
    scheduledChange: subscription.scheduledChange
      ? { action: subscription.scheduledChange.action, effectiveAt: subscription.scheduledChange.effectiveAt }
      : null,
    canceledAt: subscription.canceledAt,
    createdAt: subscription.createdAt,
    asOf: subscription.updatedAt,
  });
}
