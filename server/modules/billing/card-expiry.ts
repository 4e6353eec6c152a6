import type { Kysely, Transaction } from 'kysely';
import { z } from 'zod';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import type { Language } from '../../i18n.js';
import { enqueue, type JobHandler } from '../jobs/index.js';
import { appLink, queueMail, renderMail } from '../mail/index.js';
import type { UsersRepo } from '../users/index.js';
import { claimCardWarning } from './card-warnings-repo.js';
import { currentSubscriptionRow } from './subscriptions-repo.js';
import { savedCardOf } from './transactions-repo.js';
import { CARD_WARNING_DAYS, cardExpiresAt } from '../../../contract/subscription-values.js';

/*
 * Issue 46 item 6: a card that expires is the commonest failed renewal there is, and the one a customer
 * can prevent. Thirty days before the saved card expires the customer gets one mail (once per card) with
 * a link to update it. The warning is a durable job due at that moment, queued by the webhook that
 * recorded a payment on the card: it survives restarts, runs on one instance of several, and finds out
 * when it runs whether the card is still the one the subscription is charged on.
 */

export const CARD_EXPIRY_JOB = 'card-expiry-warning';
const WARN_BEFORE_MS = CARD_WARNING_DAYS * 86_400_000;

/** A card as its owner knows it: the last four digits and the month it expires. */
export interface Card {
  last4: string;
  month: number;
  year: number;
}

const keyOf = (card: Card) => `${card.last4}|${card.year}-${String(card.month).padStart(2, '0')}`;

/** A card works through the last day of its expiry month: it expires when the next month begins (UTC). */
export function expiresAt(card: Pick<Card, 'month' | 'year'>): Date {
  return cardExpiresAt(card.month, card.year);
}

/**
 * Queues the warning of the card a subscription's payment was captured on, due 30 days before it expires
 * (at once when that is past), in the webhook's transaction. Keyed by customer and card: the card's next
 * payments find it queued.
 */
export async function queueCardWarning(trx: Transaction<Database>, warning: { userId: string; subscriptionId: string; card: Card; now: Date }): Promise<void> {
  const due = new Date(Math.max(expiresAt(warning.card).getTime() - WARN_BEFORE_MS, warning.now.getTime()));
  await enqueue(trx, warning.now, {
    kind: CARD_EXPIRY_JOB,
    payload: { userId: warning.userId, subscriptionId: warning.subscriptionId, card: warning.card },
    key: `card-expiry:${warning.userId}:${keyOf(warning.card)}`,
    runAt: due,
  });
}

const payloadSchema = z.object({
  userId: z.string(),
  subscriptionId: z.string(),
  card: z.object({ last4: z.string(), month: z.number().int(), year: z.number().int() }),
});

// A past-due subscription's customer hears of its card from the failed payment's mails (recoveries.ts).
const BILLING_STATUSES = new Set(['active', 'trialing']);

/**
 * The warning itself, when due: only while the card is still the one the user's subscription is charged
 * on, the subscription will charge it again (not ending, not paused) and the card has not expired yet.
 * Mailed once per customer and card (card_expiry_warnings), marked in one transaction with the job.
 */
export function cardExpiryJob(deps: { db: Kysely<Database>; clock: Clock; appUrl: string; users: Pick<UsersRepo, 'findById'> }): JobHandler {
  return async (payload, context) => {
    const { userId, subscriptionId, card } = payloadSchema.parse(payload);
    const now = deps.clock.now();
    const [subscription, saved, customer] = await Promise.all([
      currentSubscriptionRow(deps.db, userId),
      savedCardOf(deps.db, subscriptionId),
      deps.users.findById(userId),
    ]);
    const stillCharged =
      subscription?.id === subscriptionId &&
      BILLING_STATUSES.has(subscription.status) &&
      subscription.scheduled_change_action === null &&
      saved !== undefined &&
      keyOf(saved) === keyOf(card) &&
      expiresAt(card).getTime() > now.getTime();
    await deps.db.transaction().execute(async (trx) => {
      if (stillCharged && customer && (await claimCardWarning(trx, userId, keyOf(card), now.toISOString()))) {
        const language: Language = customer.language === 'de' ? 'de' : 'en';
        const nextCharge = subscription.next_billed_at ?? subscription.trial_ends_at;
        await queueMail(
          trx,
          now,
          customer.email,
          renderMail('cardExpiring', language, {
            name: customer.first_name ?? '',
            last4: card.last4,
            expiry: `${String(card.month).padStart(2, '0')}/${card.year}`,
            next: nextCharge ? new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(nextCharge)) : '',
            link: appLink(deps.appUrl, language, '/account/payment-options'),
          }),
        );
      }
      await context.markDone(trx);
    });
  };
}
