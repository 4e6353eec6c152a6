import { type Kysely } from 'kysely';
import { adjustmentDataSchema, eventSchema, isSignatureValid, subscriptionDataSchema, transactionDataSchema, type PaddleEvent } from '../../billing/webhooks.js';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { type JobQueue } from '../jobs/index.js';
import { type EventBus } from '../events/index.js';
import type { MetricRecorder } from '../../plugins/metrics.js';
import type { Dialect } from '../../db/index.js';
import { describeProblem, rememberRejection } from './webhook-rejections.js';
import { applyEvent, type Applied } from './apply-events.js';
import { storeEvent } from './webhooks-repo.js';
import type { ReleaseSeatsAboveLimit } from './purchased-licences.js';

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
  /** The devices' release of the seats above a user's limit (a chargeback takes a licence back). */
  releaseSeatsAboveLimit: ReleaseSeatsAboveLimit;
}

/** A trial a returning subscriber should not have had ends now (Paddle's activate). */
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
    const first = await storeEvent(trx, {
      eventId: event.event_id,
      eventType: event.event_type,
      occurredAt: new Date(event.occurred_at).toISOString(),
      receivedAt: deps.clock.now().toISOString(),
    });
    if (!first) return null;
    return applyEvent({ trx, dialect: deps.dialect, now: deps.clock.now().toISOString(), releaseSeatsAboveLimit: deps.releaseSeatsAboveLimit }, event);
  });
  if (changed?.userId) deps.bus.publish(changed.userId, changed.event);
  // What the webhook decided (undo a duplicate, end a second trial, count a sale) was queued in its transaction.
  if (changed) deps.jobs.nudge();
  return { received: true };
}
