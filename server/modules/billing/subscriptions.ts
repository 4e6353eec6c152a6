import { sql, type Insertable, type Kysely } from 'kysely';
import type { Subscription } from '../../../contract/subscription.js';
import { eventSchema, isSignatureValid, subscriptionDataSchema, transactionDataSchema, type PaddleEvent } from '../../billing/webhooks.js';
import type { Clock } from '../../clock.js';
import type { Database, SubscriptionsTable } from '../../db/schema.js';
import { hadSubscription } from './checkout.js';
import { grantPurchasedLicences } from '../licensing/licences.js';
import { AppError } from '../../errors.js';
import type { Paddle } from '@paddle/paddle-node-sdk';
import type { BackgroundTasks } from '../../background.js';
import { callPaddle } from '../../billing/paddle.js';
import type { EventBus } from '../events/bus.js';
import type { PortalEvent } from '../../../contract/events.js';
import type { Dialect } from '../../db/index.js';
import { ingest, type Report } from '../analytics/ingest.js';

export interface WebhookDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  clock: Clock;
  /** Paddle signs with the wall clock, whatever the server's (test) clock says. */
  wallClock: Clock;
  webhookSecret: string;
  /** Told, once an event is stored, whose subscription or payment changed. */
  bus: EventBus;
  paddle: Paddle | null;
  /** Follow-up calls to Paddle that must not hold up the webhook's answer. */
  background: BackgroundTasks;
}

const iso = (value: string | null | undefined) => (value ? new Date(value).toISOString() : null);

/**
 * `POST /paddle/webhook`: the signature is checked on the raw body, the event stored once by its
 * event_id, and applied in one transaction. A duplicate is acknowledged and ignored; an event older than
 * what a subscription or transaction was last written from changes nothing. The owner's open event
 * streams hear of it after the commit.
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
  const changed = await deps.db.transaction().execute(async (trx): Promise<{ userId: string | null; event: PortalEvent; secondTrial?: boolean; sales?: Report[] } | null> => {
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
    if (Number(stored.numInsertedOrUpdatedRows ?? 0) === 0) return null;
    if (event.event_type.startsWith('subscription.')) return applySubscription(trx, event);
    if (event.event_type.startsWith('transaction.')) return applyTransaction(trx, event);
    return null;
  });
  if (changed?.userId) deps.bus.publish(changed.userId, changed.event);
  if (changed?.sales?.length) await ingest(deps, changed.sales);
  if (changed?.secondTrial) {
    // The trial is for a first subscription. Checkouts for returning subscribers are created without
    // one (checkout.ts); one that got a trial anyway (a checkout opened around the portal) ends it now.
    const subscriptionId = changed.event.id;
    deps.background.run('end second trial', async () => {
      await callPaddle(deps.paddle, (paddle) => paddle.subscriptions.activate(subscriptionId));
    });
  }
  return { received: true };
}

async function ownerOf(db: Kysely<Database>, customerId: string): Promise<string | null> {
  const owner = await db.selectFrom('billing_customers').select('user_id').where('provider_customer_id', '=', customerId).executeTakeFirst();
  return owner?.user_id ?? null;
}

async function applySubscription(db: Kysely<Database>, event: PaddleEvent) {
  const data = subscriptionDataSchema.parse(event.data);
  const item = data.items[0];
  const userId = await upsertSubscription(db, {
    id: data.id,
    customerId: data.customer_id,
    status: data.status,
    priceId: item?.price.id ?? '',
    interval: data.billing_cycle.interval,
    currencyCode: data.currency_code,
    periodStartsAt: data.current_billing_period?.starts_at,
    periodEndsAt: data.current_billing_period?.ends_at,
    nextBilledAt: data.next_billed_at,
    trialEndsAt: item?.trial_dates?.ends_at,
    scheduledChange: data.scheduled_change ? { action: data.scheduled_change.action, effectiveAt: data.scheduled_change.effective_at } : null,
    canceledAt: data.canceled_at,
    createdAt: data.created_at,
    asOf: event.occurred_at,
  });
  const secondTrial =
    event.event_type === 'subscription.created' && data.status === 'trialing' && userId !== null && (await hadSubscription(db, userId, data.id));
  return { userId, event: { type: 'subscription' as const, id: data.id }, secondTrial };
}

/** Statuses of a transaction that is a payment (or an attempt at one), not a checkout still open. */
const PAYMENT_STATUSES = new Set(['billed', 'paid', 'completed', 'past_due', 'canceled']);

/** Records a payment: what was bought, for how much, when; newer descriptions win, as for subscriptions. */
async function applyTransaction(db: Kysely<Database>, event: PaddleEvent) {
  const data = transactionDataSchema.parse(event.data);
  if (!data.customer_id || !PAYMENT_STATUSES.has(data.status)) return null;
  const userId = await ownerOf(db, data.customer_id);
  const totals = data.details.totals;
  const row = {
    id: data.id,
    customer_id: data.customer_id,
    user_id: userId,
    subscription_id: data.subscription_id ?? null,
    status: data.status,
    origin: data.origin,
    currency_code: data.currency_code,
    subtotal: Number(totals.subtotal),
    discount: Number(totals.discount),
    tax: Number(totals.tax),
    grand_total: Number(totals.grand_total),
    billed_at: iso(data.billed_at),
    items: JSON.stringify(data.items.map((item) => ({ priceId: item.price.id, productId: item.price.product_id, quantity: item.quantity }))),
    created_at: iso(data.created_at) as string,
    last_event_at: new Date(event.occurred_at).toISOString(),
  };
  const { id: _id, created_at: _created, ...changes } = row;
  await db
    .insertInto('transactions')
    .values(row)
    .onConflict((oc) => oc.column('id').doUpdateSet(changes).where('transactions.last_event_at', '<=', sql<string>`excluded.last_event_at`))
    .execute();
  const sales: Report[] = [];
  if (data.status === 'completed' && data.subscription_id && userId) sales.push({ kind: 'sale', userId, id: data.id, channel: 'subscription', at: new Date(iso(data.billed_at) ?? event.occurred_at) });
  if (data.status === 'completed' && !data.subscription_id) {
    // A completed one-off purchase grants a perpetual licence for each product that names its release.
    const lines = (data.details.line_items ?? []).map((line) => {
      const release = line.product?.custom_data?.shapelabRelease;
      return { priceId: line.price_id, productId: line.product?.id ?? '', release: typeof release === 'string' && release ? release : null };
    });
    await grantPurchasedLicences(db, {
      userId,
      transactionId: data.id,
      grantedAt: iso(data.billed_at) ?? new Date(event.occurred_at).toISOString(),
      lines,
    });
    // One sale per release bought (counted once however often Paddle repeats the event).
    for (const line of lines) {
      if (userId && line.release) {
        sales.push({ kind: 'sale', userId, id: `${data.id}:${line.productId}`, channel: line.release === '2024' ? 'perpetual-2024' : 'direct', at: new Date(iso(data.billed_at) ?? event.occurred_at) });
      }
    }
  }
  return { userId, event: { type: 'transaction' as const, id: data.id }, sales };
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
