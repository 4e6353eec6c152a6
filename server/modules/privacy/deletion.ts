import { randomBytes } from 'node:crypto';
import { ApiError, type Paddle } from '@paddle/paddle-node-sdk';
import type { Kysely } from 'kysely';
import { callPaddle } from '../../billing/paddle.js';
import type { Clock } from '../../clock.js';
import { transactionRetried } from '../../db/retry.js';
import type { Database } from '../../db/schema.js';
import {
  countCurrentPasswordAttempt,
  countOtherAdmins,
  deleteAccountRow,
  RECENT_SIGN_IN_MS,
  verifyPassword,
  type AuthSession,
  type UserWithRoles,
} from '../users/index.js';
import { AppError } from '../../errors.js';
import type { Language } from '../../i18n.js';
import { type Sessions, type Throttle } from '../auth/index.js';
import { customerIdOf, liveSubscriptions, rememberSubscription } from '../billing/index.js';
import { seatCountOf } from '../devices/index.js';
import { type EventBus } from '../events/index.js';
import { type JobQueue } from '../jobs/index.js';
import { forgetActivity, recordActivity } from '../activity/index.js';
import { forgetMailTo, queueMail, renderMail } from '../mail/index.js';

export interface DeletionDeps {
  db: Kysely<Database>;
  paddle: Paddle | null;
  clock: Clock;
  sessions: Sessions;
  throttle: Throttle;
  jobs: JobQueue;
  bus: EventBus;
}

/**
 * `DELETE /users/me` (issue 17; GDPR article 17). Confirmed by the current password, or for an account
 * without one by a sign-in within the last 10 minutes. Then, in this order so that nothing is half done
 * when Paddle is unreachable: a live subscription is cancelled at Paddle at once (no further charge) and
 * the Paddle customer's name and email are replaced; then, in one database transaction, every session
 * ends and the account row goes with everything personal that hangs on it (profile, roles, social links,
 * sessions and tokens, devices and seats, verifications, raw usage rows: foreign keys cascade), its
 * outbox mail and sign-in counters are removed, and the audit trail records the deletion without
 * personal data. Payments, invoices, subscriptions and licences stay for the books, detached from the
 * person; the analytics totals stay, anonymous. A confirmation mail to the address is queued in that
 * transaction.
 */
export async function deleteOwnAccount(deps: DeletionDeps, user: UserWithRoles, session: AuthSession, input: { password?: string | undefined }): Promise<void> {
  await confirmIdentity(deps, user, session, input.password);
  const now = deps.clock.now();
  if (user.roles.includes('admin')) {
    if ((await countOtherAdmins(deps.db, user.id)) === 0) throw new AppError('LAST_ADMIN', 409);
  }

  const customerId = await customerIdOf(deps.db, user.id);
  for (const subscription of await liveSubscriptions(deps.db, user.id)) {
    const cancelled = await callPaddle(
      deps.paddle,
      async (paddle) => {
        try {
          return await paddle.subscriptions.cancel(subscription.id, { effectiveFrom: 'immediately' });
        } catch (error) {
          if (error instanceof ApiError && error.code === 'subscription_update_when_canceled') return paddle.subscriptions.get(subscription.id);
          throw error;
        }
      },
      'SUBSCRIPTION_NOT_FOUND',
    );
    await rememberSubscription(deps.db, cancelled);
  }
  if (customerId) {
    // Paddle keeps the invoices the law requires; the person's name and email on them are replaced.
    await callPaddle(deps.paddle, (paddle) =>
      paddle.customers.update(customerId, { name: null, email: `deleted-${randomBytes(8).toString('hex')}@example.com` }),
    );
  }

  const language: Language = user.language === 'de' ? 'de' : 'en';
  await deps.sessions.endAllExcept(user.id, null, 'account-deleted');
  // A webhook may hold a row that hangs on the user while it waits for the user's row: run again if PostgreSQL
  // breaks that deadlock by failing this side.
  await transactionRetried(deps.db, async (trx) => {
    const seats = await seatCountOf(trx, user.id);
    await forgetMailTo(trx, user.email);
    // Sign-in, reset and code counters are keyed by the email address.
    await deps.throttle.forgetAddress(user.email, trx);
    await deleteAccountRow(trx, user.id);
    await forgetActivity(trx, user.id);
    await recordActivity(trx, {
      userId: user.id,
      kind: 'account.deleted',
      details: { registeredAt: new Date(user.created_at).toISOString(), seatsReleased: seats, subscriptionsCancelled: true },
      at: now,
    });
    await queueMail(trx, now, user.email, renderMail('accountDeleted', language, { name: user.first_name ?? '' }));
  });
  deps.bus.announce({ kind: 'user-deleted', userId: user.id });
  deps.jobs.nudge();
}

async function confirmIdentity(deps: DeletionDeps, user: UserWithRoles, session: AuthSession, password: string | undefined): Promise<void> {
  if (user.password_hash !== null) {
    await countCurrentPasswordAttempt(deps.throttle, user.id);
    if (!password || !(await verifyPassword(user.password_hash, password))) throw new AppError('WRONG_PASSWORD', 403);
    return;
  }
  const startedAt = await deps.sessions.startedAt(session.id);
  if (startedAt === undefined || deps.clock.now().getTime() - Date.parse(startedAt) > RECENT_SIGN_IN_MS) throw new AppError('REAUTHENTICATION_REQUIRED', 403);
}
