import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import type { Subscription } from '../../../contract/subscription.js';
import { adjustmentDataSchema, eventSchema, isSignatureValid, subscriptionDataSchema, transactionDataSchema, type PaddleEvent } from '../../billing/webhooks.js';
import type { Clock } from '../../clock.js';
import type { Database, SubscriptionsTable } from '../../db/schema.js';
import { grantPurchasedLicences } from '../licensing/licences.js';
import { AppError } from '../../errors.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Paddle, Subscription as PaddleSubscription } from '@paddle/paddle-node-sdk';
import { z } from 'zod';
import { enqueue, type JobHandler, type JobQueue } from '../jobs/queue.js';
import { callPaddle } from '../../billing/paddle.js';
import type { EventBus } from '../events/bus.js';
import type { MetricRecorder } from '../../plugins/metrics.js';
import type { PortalEvent } from '../../../contract/events.js';
import type { Dialect } from '../../db/index.js';
import type { Report } from '../analytics/ingest.js';
import { queueSales } from '../analytics/jobs.js';
import { liveSubscriptions } from './ownership.js';
import { recordActivity } from '../activity/log.js';
import { applyAdjustment, auditPurchase, queueDuplicateCancellation, recordRefund, REFUND_WINDOW_MS } from './refunds.js';
import { describeProblem, rememberRejection } from './webhook-rejections.js';

type Sale = Extract<Report, { kind: 'sale' }>;

export interface WebhookDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  clock: Clock;
  /** Paddle signs with the wall clock, whatever the server's (test) clock says. */
  wallClock: Clock;
  webhookSecret: string;
  /** Told, once an event is stored, whose subscription or payment changed. */
  bus: EventBus;
  /** Runs what a webhook decided after its answer: refunds, cancellations, a second trial ended. */
  jobs: JobQueue;
  /** How late webhooks arrive (Prometheus). */
  metrics: Pick<MetricRecorder, 'webhookLag'>;
  /** Where a notification the portal cannot read is reported, once. */
  log: Pick<FastifyBaseLogger, 'warn'>;
}

/** A trial a returning subscriber should not have had ends now (Paddle's activate). */
export const END_SECOND_TRIAL_JOB = 'end-second-trial';

const iso = (value: string | null | undefined) => (value ? new Date(value).toISOString() : null);

/** The data schema of each kind of event the portal applies; other kinds are stored and otherwise ignored. */
function dataSchemaOf(eventType: string): z.ZodType | null {
  if (eventType.startsWith('subscription.')) return subscriptionDataSchema;
  if (eventType.startsWith('transaction.')) return transactionDataSchema;
  if (eventType.startsWith('adjustment.')) return adjustmentDataSchema;
  return null;
}

/**
 * Issue 44 item 9: a correctly signed notification whose body or data the portal cannot read answers 400
 * WEBHOOK_PAYLOAD_INVALID, never a 500, and is logged once (by event id, or the body's digest), however
 * often Paddle delivers it again. It is not stored as received: once the portal reads it, a retry applies it.
 */
async function rejectPayload(deps: WebhookDeps, rawBody: string, problem: string, cause: unknown): Promise<never> {
  const envelope = z.object({ event_id: z.string().min(1).max(64), event_type: z.string().max(64).optional() }).safeParse(safeJson(rawBody));
  const eventId = envelope.success ? envelope.data.event_id : null;
  const eventType = envelope.success ? (envelope.data.event_type ?? null) : null;
  if (await rememberRejection(deps.db, { eventId, eventType, rawBody, problem }, deps.clock.now())) {
    deps.log.warn({ eventId, eventType, problem }, 'Paddle webhook: a signed notification failed the schema; answered 400 to it and its retries');
  }
  throw new AppError('WEBHOOK_PAYLOAD_INVALID', 400, { cause });
}

function safeJson(rawBody: string): unknown {
  try {
    return JSON.parse(rawBody);
  } catch {
    return null;
  }
}

/**
 * `POST /paddle/webhook`: the signature is checked on the raw body, the event and its data read (a body
 * the portal cannot read answers 400), the event stored once by its event_id, and applied in one
 * transaction. A duplicate is acknowledged and ignored; an event older than what a subscription or
 * transaction was last written from changes nothing. The owner's open event streams hear of it after the commit.
 */
export async function receiveWebhook(deps: WebhookDeps, rawBody: string, signature: string | undefined): Promise<{ received: true }> {
  if (!isSignatureValid(rawBody, signature, deps.webhookSecret, deps.wallClock.now().getTime())) {
    throw new AppError('INVALID_WEBHOOK_SIGNATURE', 401);
  }
  const body = safeJson(rawBody);
  if (body === null) return rejectPayload(deps, rawBody, 'not JSON', undefined);
  const envelope = eventSchema.safeParse(body);
  if (!envelope.success) return rejectPayload(deps, rawBody, describeProblem(envelope.error), envelope.error);
  const event: PaddleEvent = envelope.data;
  const data = dataSchemaOf(event.event_type)?.safeParse(event.data);
  if (data && !data.success) return rejectPayload(deps, rawBody, describeProblem(data.error, 'data'), data.error);
  deps.metrics.webhookLag((deps.wallClock.now().getTime() - Date.parse(event.occurred_at)) / 1000);
  const changed = await deps.db.transaction().execute(async (trx): Promise<Applied | null> => {
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
    const context = { trx, dialect: deps.dialect, now: deps.clock.now().toISOString() };
    if (event.event_type.startsWith('subscription.')) {
      const applied = await applySubscription(context, event);
      // The trial is for a first subscription. Checkouts for returning subscribers are created without
      // one (checkout.ts); one that got a trial anyway (a checkout opened around the portal) ends now.
      if (applied?.secondTrial) {
        await enqueue(trx, new Date(context.now), { kind: END_SECOND_TRIAL_JOB, payload: { subscriptionId: applied.event.id }, key: `end-trial:${applied.event.id}` });
      }
      return applied;
    }
    if (event.event_type.startsWith('transaction.')) {
      const applied = await applyTransaction(context, event);
      if (applied?.sales?.length) await queueSales(trx, new Date(context.now), applied.sales);
      return applied;
    }
    if (event.event_type.startsWith('adjustment.')) {
      const userId = await applyAdjustment(trx, adjustmentDataSchema.parse(event.data), context.now);
      return { userId, event: { type: 'transaction', id: String(event.data.transaction_id) } };
    }
    return null;
  });
  if (changed?.userId) deps.bus.publish(changed.userId, changed.event);
  // What the webhook decided (undo a duplicate, end a second trial, count a sale) was queued in its transaction.
  if (changed) deps.jobs.nudge();
  return { received: true };
}

/** The job that ends a second trial at Paddle (queued by the webhook that found it). */
export function endSecondTrialJob(paddle: Paddle | null): JobHandler {
  return async (payload) => {
    const { subscriptionId } = z.object({ subscriptionId: z.string() }).parse(payload);
    await callPaddle(paddle, (instance) => instance.subscriptions.activate(subscriptionId));
  };
}

interface Applied {
  userId: string | null;
  event: PortalEvent;
  secondTrial?: boolean;
  sales?: Sale[];
}

interface ApplyContext {
  trx: Transaction<Database>;
  dialect: Dialect;
  now: string;
}

/**
 * Holds the customer's row until the webhook's transaction ends, so two webhooks of one customer (two
 * checkouts completing at once) are applied one after the other and the second sees the first: the
 * duplicate check below is never a check-then-act race. SQLite has one writer at a time already.
 */
async function lockCustomer(context: ApplyContext, customerId: string): Promise<void> {
  if (context.dialect !== 'postgres') return;
  await context.trx.selectFrom('billing_customers').select('user_id').where('provider_customer_id', '=', customerId).forUpdate().execute();
}

async function ownerOf(db: Kysely<Database>, customerId: string): Promise<string | null> {
  const owner = await db.selectFrom('billing_customers').select('user_id').where('provider_customer_id', '=', customerId).executeTakeFirst();
  return owner?.user_id ?? null;
}

async function applySubscription(context: ApplyContext, event: PaddleEvent): Promise<Applied> {
  const data = subscriptionDataSchema.parse(event.data);
  await lockCustomer(context, data.customer_id);
  const item = data.items[0];
  const userId = await upsertSubscription(context.trx, {
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
  if (userId !== null) await settleSubscriptions(context, userId);
  // Whether this one ends its trial at once depends on this subscription alone: it is kept (not a
  // duplicate, even when this webhook just undid another one) and was bought after an earlier one of
  // the user's. A duplicate bought later does not count: two trial tabs of a first-time buyer keep one trial.
  const secondTrial =
    event.event_type === 'subscription.created' &&
    data.status === 'trialing' &&
    userId !== null &&
    !(await isDuplicate(context.trx, data.id)) &&
    (await hadSubscriptionBefore(context.trx, userId, { id: data.id, createdAt: iso(data.created_at) as string }));
  return { userId, event: { type: 'subscription' as const, id: data.id }, secondTrial };
}

/** Whether the user had a subscription of their own (not a duplicate) bought before `subscription`. */
async function hadSubscriptionBefore(db: Kysely<Database>, userId: string, subscription: { id: string; createdAt: string }): Promise<boolean> {
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

const isDuplicate = async (db: Kysely<Database>, subscriptionId: string) =>
  (await db.selectFrom('subscriptions').select('duplicate_of').where('id', '=', subscriptionId).executeTakeFirst())?.duplicate_of != null;

/**
 * The webhook's second check (issue 16): a user has at most one live subscription. When a checkout opened
 * before the first one was paid completes anyway, every live subscription but the earliest bought is a
 * duplicate: it is marked (so no page or entitlement counts it), its payments are recorded for a full
 * refund, and the audit trail says so; the refund runner cancels it at once and refunds. Deciding by the
 * order of purchase, not of arrival, gives the same answer however Paddle orders or repeats its webhooks.
 * Returns whether anything was marked.
 */
async function settleSubscriptions(context: ApplyContext, userId: string): Promise<boolean> {
  const live = await liveSubscriptions(context.trx, userId);
  const [keeper, ...duplicates] = live;
  if (!keeper || duplicates.length === 0) return false;
  for (const duplicate of duplicates) {
    await context.trx.updateTable('subscriptions').set({ duplicate_of: keeper.id }).where('id', '=', duplicate.id).execute();
    await queueDuplicateCancellation(context.trx, duplicate.id, context.now);
    const refunded = await refundSubscriptionPayments(context, userId, duplicate.id);
    await auditPurchase(context.trx, {
      actorId: null,
      targetId: userId,
      action: 'purchase.duplicate_undone',
      details: { subscriptionId: duplicate.id, keptSubscriptionId: keeper.id, refundedTransactionIds: refunded },
      at: context.now,
    });
  }
  return true;
}

/** Records a full refund of every completed, paid transaction of a duplicate subscription; their ids. */
async function refundSubscriptionPayments(context: ApplyContext, userId: string, subscriptionId: string): Promise<string[]> {
  const payments = await context.trx
    .selectFrom('transactions')
    .select(['id', 'grand_total', 'currency_code'])
    .where('subscription_id', '=', subscriptionId)
    .where('status', '=', 'completed')
    .execute();
  const refunded: string[] = [];
  for (const payment of payments) {
    if (Number(payment.grand_total) <= 0) continue;
    const recorded = await recordRefund(context.trx, {
      transactionId: payment.id,
      userId,
      reason: 'duplicate',
      subscriptionId,
      amount: Number(payment.grand_total),
      currencyCode: payment.currency_code,
      at: context.now,
    });
    if (recorded) refunded.push(payment.id);
  }
  return refunded;
}

/** Statuses of a transaction that is a payment (or an attempt at one), not a checkout still open. */
const PAYMENT_STATUSES = new Set(['billed', 'paid', 'completed', 'past_due', 'canceled']);

/**
 * Records a payment: what was bought, for how much, when; newer descriptions win, as for subscriptions.
 * A completed payment is then matched by exactly one grant or one refund: a one-off purchase grants its
 * licences unless the user holds that release already (then it is refunded, and nothing is granted); a
 * payment of a subscription being undone as a duplicate is refunded.
 */
async function applyTransaction(context: ApplyContext, event: PaddleEvent): Promise<Applied | null> {
  const db = context.trx;
  const data = transactionDataSchema.parse(event.data);
  if (!data.customer_id || !PAYMENT_STATUSES.has(data.status)) return null;
  await lockCustomer(context, data.customer_id);
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
  const sales: Sale[] = [];
  let undo = false;
  const at = new Date(iso(data.billed_at) ?? event.occurred_at);
  const paid = Number(totals.grand_total);
  if (data.status === 'completed' && userId) {
    // Once per transaction, however often and in whatever order Paddle delivers its events.
    await recordActivity(db, {
      key: `purchase:${data.id}`,
      userId,
      kind: 'purchase.completed',
      details: { transactionId: data.id, subscriptionId: data.subscription_id ?? null, origin: data.origin, amount: paid, currencyCode: data.currency_code },
      at,
    });
  }
  if (data.status === 'completed' && data.subscription_id && userId) {
    if (await isDuplicate(db, data.subscription_id)) {
      // A payment of a subscription being undone (it may arrive after the subscription's own webhook).
      if (paid > 0) {
        undo = await recordRefund(db, {
          transactionId: data.id,
          userId,
          reason: 'duplicate',
          subscriptionId: data.subscription_id,
          amount: paid,
          currencyCode: data.currency_code,
          at: context.now,
        });
      }
    } else {
      sales.push({ kind: 'sale', userId, id: data.id, channel: 'subscription', at });
    }
  }
  if (data.status === 'completed' && !data.subscription_id) {
    // A completed one-off purchase grants a perpetual licence for each product that names its release.
    const lines = (data.details.line_items ?? []).map((line) => {
      const release = line.product?.custom_data?.shapelabRelease;
      return { priceId: line.price_id, productId: line.product?.id ?? '', release: typeof release === 'string' && release ? release : null };
    });
    const outcome = await grantPurchasedLicences(db, { userId, transactionId: data.id, grantedAt: at.toISOString(), lines });
    const duplicateRelease = outcome.alreadyOwned[0];
    if (userId && duplicateRelease !== undefined && outcome.granted.length === 0 && paid > 0) {
      // The release was held already (another checkout completed first, or a coupon): no second
      // licence; the payment is refunded in full.
      undo = await recordRefund(db, {
        transactionId: data.id,
        userId,
        reason: 'duplicate',
        release: duplicateRelease,
        amount: paid,
        currencyCode: data.currency_code,
        at: context.now,
      });
      if (undo) {
        await auditPurchase(db, {
          actorId: null,
          targetId: userId,
          action: 'purchase.duplicate_undone',
          details: { transactionId: data.id, release: duplicateRelease, amount: paid, currencyCode: data.currency_code },
          at: context.now,
        });
      }
    }
    // One sale per release granted (counted once however often Paddle repeats the event).
    for (const line of lines) {
      if (userId && line.release && outcome.granted.some((grant) => grant.productId === line.productId)) {
        sales.push({ kind: 'sale', userId, id: `${data.id}:${line.productId}`, channel: line.release === '2024' ? 'perpetual-2024' : 'direct', at });
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

/**
 * `GET /subscription/user`: the user's subscription: the live one, else the latest (a subscription being
 * undone as a duplicate is never the user's), with the refund its cancellation would make now.
 */
export async function subscriptionOf(db: Kysely<Database>, userId: string, now: Date): Promise<Subscription | null> {
  const row = await db
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('duplicate_of', 'is', null)
    .orderBy(sql`case when status in ('active', 'trialing', 'past_due', 'paused') then 0 else 1 end`)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
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
    refund: row.status === 'canceled' ? null : await refundOffer(db, row.id, now),
  };
}

/**
 * Spec section 9: cancelling within 14 days of a subscription's first payment refunds it. The offer (its
 * deadline and what it refunds: every paid, unrefunded payment of the subscription), or null when the
 * first payment is older than 14 days or nothing was paid yet (a trial ends without a charge anyway).
 */
export async function refundOffer(db: Kysely<Database>, subscriptionId: string, now: Date): Promise<Subscription['refund']> {
  const payments = await db
    .selectFrom('transactions')
    .select(['id', 'grand_total', 'currency_code', 'billed_at', 'created_at', 'refund_status'])
    .where('subscription_id', '=', subscriptionId)
    .where('status', '=', 'completed')
    .where('grand_total', '>', 0)
    .execute();
  if (payments.length === 0) return null;
  const first = Math.min(...payments.map((payment) => Date.parse(payment.billed_at ?? payment.created_at)));
  const until = first + REFUND_WINDOW_MS;
  const open = payments.filter((payment) => payment.refund_status === null);
  if (until <= now.getTime() || open.length === 0) return null;
  const currencyCode = open[0]?.currency_code as string;
  return { until: new Date(until).toISOString(), amount: { amount: open.reduce((sum, payment) => sum + Number(payment.grand_total), 0), currencyCode } };
}
