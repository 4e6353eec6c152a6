import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Database, SubscriptionsTable } from '../../db/schema.js';
import type { Subscription as PaddleSubscription } from '@paddle/paddle-node-sdk';
import { ownerOf } from './customers-repo.js';

/**
 * The subscriptions table's SQL: the local copy of each Paddle subscription, written from webhooks and from
 * Paddle's answers to calls (the newer description wins), and marked `duplicate_of` when it is being undone.
 */

type Db = Kysely<Database>;

/** An ISO time from Paddle's, or null. */
export const iso = (value: string | null | undefined) => (value ? new Date(value).toISOString() : null);

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
  /** Paddle's scheduled change; `resumeAt` when it is a pause that ends by itself. */
  scheduledChange: { action: string; effectiveAt: string; resumeAt?: string | null } | null;
  canceledAt?: string | null;
  pausedAt?: string | null;
  createdAt: string;
  asOf: string;
}

/**
 * Writes the local copy of a subscription, from a webhook or from Paddle's answer to a change. One
 * statement decides: the row is written only when this description is not older than the last one.
 */
export async function upsertSubscription(db: Db, state: SubscriptionState): Promise<string | null> {
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
    paused_at: iso(state.pausedAt),
    scheduled_resume_at: iso(state.scheduledChange?.resumeAt),
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
export async function rememberSubscription(db: Db, subscription: PaddleSubscription): Promise<string | null> {
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
      ? { action: subscription.scheduledChange.action, effectiveAt: subscription.scheduledChange.effectiveAt, resumeAt: subscription.scheduledChange.resumeAt }
      : null,
    canceledAt: subscription.canceledAt,
    pausedAt: subscription.pausedAt,
    createdAt: subscription.createdAt,
    asOf: subscription.updatedAt,
  });
}

/** The user's subscriptions in `statuses` that are not being undone, the earliest bought first. */
export async function subscriptionsInStatus(db: Db, userId: string, statuses: readonly string[]) {
  return db
    .selectFrom('subscriptions')
    .select(['id', 'status', 'created_at', 'duplicate_of'])
    .where('user_id', '=', userId)
    .where('status', 'in', [...statuses])
    .where('duplicate_of', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The user's subscription as the screens show it: the live one, else the latest; never one being undone. */
export async function currentSubscriptionRow(db: Db, userId: string): Promise<Selectable<SubscriptionsTable> | undefined> {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('duplicate_of', 'is', null)
    .orderBy(sql`case when status in ('active', 'trialing', 'past_due', 'paused') then 0 else 1 end`)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}

/** What the entitlements read of a subscription: its state, its plan, its renewal and a scheduled change. */
export interface EntitlingSubscription {
  status: string;
  trial_ends_at: string | null;
  price_id: string;
  billing_interval: string;
  next_billed_at: string | null;
  scheduled_change_action: string | null;
  scheduled_change_at: string | null;
}

/** The user's latest subscription, whatever its status; one being undone as a duplicate is never it. */
export async function latestSubscriptionOf(db: Db, userId: string): Promise<EntitlingSubscription | undefined> {
  return db
    .selectFrom('subscriptions')
    .select(['status', 'trial_ends_at', 'price_id', 'billing_interval', 'next_billed_at', 'scheduled_change_action', 'scheduled_change_at'])
    .where('user_id', '=', userId)
    .where('duplicate_of', 'is', null)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}

/** Whether the user has had any subscription (other than `except`), duplicates included. */
export async function hasSubscription(db: Db, userId: string, except?: string): Promise<boolean> {
  let query = db.selectFrom('subscriptions').select('id').where('user_id', '=', userId);
  if (except) query = query.where('id', '!=', except);
  return (await query.executeTakeFirst()) !== undefined;
}

/** Whether the user had a subscription of their own (not a duplicate) bought before `subscription` (ties broken by id). */
export async function hasSubscriptionBefore(db: Db, userId: string, subscription: { id: string; createdAt: string }): Promise<boolean> {
  const earlier = await db
    .selectFrom('subscriptions')
    .select('id')
    .where('user_id', '=', userId)
    .where('id', '!=', subscription.id)
    .where('duplicate_of', 'is', null)
    .where((eb) => eb.or([eb('created_at', '<', subscription.createdAt), eb.and([eb('created_at', '=', subscription.createdAt), eb('id', '<', subscription.id)])]))
    .executeTakeFirst();
  return earlier !== undefined;
}

/** Whether the subscription is being undone as a duplicate. */
export async function isDuplicate(db: Db, subscriptionId: string): Promise<boolean> {
  return (await db.selectFrom('subscriptions').select('duplicate_of').where('id', '=', subscriptionId).executeTakeFirst())?.duplicate_of != null;
}

/** Marks `subscriptionId` a duplicate of `keeperId`: no page or entitlement counts it from now on. */
export async function markDuplicate(db: Db, subscriptionId: string, keeperId: string): Promise<void> {
  await db.updateTable('subscriptions').set({ duplicate_of: keeperId }).where('id', '=', subscriptionId).execute();
}

/** The currency of the user's live subscription (the earliest bought, as the pages show it), or null without one. */
export async function liveSubscriptionCurrency(db: Db, userId: string, liveStatuses: readonly string[]): Promise<string | null> {
  const row = await db
    .selectFrom('subscriptions')
    .select('currency_code')
    .where('user_id', '=', userId)
    .where('status', 'in', [...liveStatuses])
    .where('duplicate_of', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirst();
  return row?.currency_code ?? null;
}
