import { sql, type Insertable, type Kysely } from 'kysely';
import type { Subscription } from '../../../contract/subscription.js';
import { eventSchema, isSignatureValid, subscriptionDataSchema, type PaddleEvent } from '../../billing/webhooks.js';
import type { Clock } from '../../clock.js';
import type { Database, SubscriptionsTable } from '../../db/schema.js';
import { AppError } from '../../errors.js';

export interface WebhookDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** Paddle signs with the wall clock, whatever the server's (test) clock says. */
  wallClock: Clock;
  webhookSecret: string;
}

const iso = (value: string | null | undefined) => (value ? new Date(value).toISOString() : null);

/**
 * `POST /paddle/webhook`: the signature is checked on the raw body, the event stored once by its
 * event_id, and applied in one transaction. A duplicate is acknowledged and ignored; an event older than
 * what a subscription was last written from changes nothing.
 */
export async function receiveWebhook(deps: WebhookDeps, rawBody: string, signature: string | undefined): Promise<{ received: true }> {
  if (!isSignatureValid(rawBody, signature, deps.webhookSecret, deps.wallClock.now().getTime())) {
    throw new AppError('INVALID_WEBHOOK_SIGNATURE', 401);
  }
  let event: PaddleEvent;
  try {
    event = eventSchema.parse(JSON.parse(rawBody));
  } catch (error) {
    throw new AppError('VALIDATION_FAILED', 400, { cause: error });
  }
  await deps.db.transaction().execute(async (trx) => {
    const stored = await trx
      .insertInto('webhook_events')
      .values({
        event_id: event.event_id,
        event_type: event.event_type,
        occurred_at: new Date(event.occurred_at).toISOString(),
        received_at: deps.clock.now().toISOString(),
      })
      .onConflict((oc) => oc.column('event_id').doNothing())
      .executeTakeFirst();
    if (Number(stored.numInsertedOrUpdatedRows ?? 0) === 0) return;
    if (event.event_type.startsWith('subscription.')) await applySubscription(trx, event);
  });
  return { received: true };
}

async function applySubscription(db: Kysely<Database>, event: PaddleEvent): Promise<void> {
  const data = subscriptionDataSchema.parse(event.data);
  const owner = await db.selectFrom('billing_customers').select('user_id').where('provider_customer_id', '=', data.customer_id).executeTakeFirst();
  const item = data.items[0];
  const row: Insertable<SubscriptionsTable> = {
    id: data.id,
    customer_id: data.customer_id,
    user_id: owner?.user_id ?? null,
    status: data.status,
    price_id: item?.price.id ?? '',
    billing_interval: data.billing_cycle.interval,
    currency_code: data.currency_code,
    current_period_starts_at: iso(data.current_billing_period?.starts_at),
    current_period_ends_at: iso(data.current_billing_period?.ends_at),
    next_billed_at: iso(data.next_billed_at),
    trial_ends_at: iso(item?.trial_dates?.ends_at),
    scheduled_change_action: data.scheduled_change?.action ?? null,
    scheduled_change_at: iso(data.scheduled_change?.effective_at),
    canceled_at: iso(data.canceled_at),
    created_at: iso(data.created_at) as string,
    last_event_at: new Date(event.occurred_at).toISOString(),
  };
  const { id: _id, created_at: _created, ...changes } = row;
  // One statement decides: the row is written only when this event is not older than the last one.
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
}

/** `GET /subscription/user`: the user's latest subscription, or null. */
export async function subscriptionOf(db: Kysely<Database>, userId: string): Promise<Subscription | null> {
  const row = await db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').executeTakeFirst();
  if (!row) return null;
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
  };
}
