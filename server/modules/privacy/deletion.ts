import { randomBytes } from 'node:crypto';
import { ApiError, type Paddle } from '@paddle/paddle-node-sdk';
import type { Kysely } from 'kysely';
import { callPaddle } from '../../billing/paddle.js';
import type { Clock } from '../../clock.js';
import { transactionRetried } from '../../db/retry.js';
import type { Database } from '../../db/schema.js';
import { countCurrentPasswordAttempt, RECENT_SIGN_IN_MS, verifyPassword, type AuthSession, type UserWithRoles } from '../users/index.js';
import { AppError } from '../../errors.js';
import type { Language } from '../../i18n.js';
import { type Sessions, type Throttle } from '../auth/index.js';
import { liveSubscriptions, rememberSubscription } from '../billing/index.js';
import { type EventBus } from '../events/index.js';
import { type JobQueue } from '../jobs/index.js';
import { forgetActivity, recordActivity } from '../activity/index.js';
import { queueMail, renderMail } from '../mail/index.js';

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
    const admins = await deps.db.selectFrom('user_roles').select('user_id').where('role', '=', 'admin').where('user_id', '!=', user.id).execute();
    if (admins.length === 0) throw new AppError('LAST_ADMIN', 409);
  }

  const customer = await deps.db.selectFrom('billing_customers').select('provider_customer_id').where('user_id', '=', user.id).executeTakeFirst();
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
  if (customer) {
    // Paddle keeps the invoices the law requires; the person's name and email on them are replaced.
    await callPaddle(deps.paddle, (paddle) =>
      paddle.customers.update(customer.provider_customer_id, { name: null, email: `deleted-${randomBytes(8).toString('hex')}@example.com` }),
    );
  }

  const language: Language = user.language === 'de' ? 'de' : 'en';
  await deps.sessions.endAllExcept(user.id, null, 'account-deleted');
  // A webhook may hold a row that hangs on the user while it waits for the user's row: run again if PostgreSQL
  // breaks that deadlock by failing this side.
  await transactionRetried(deps.db, async (trx) => {
    const seats = await trx.selectFrom('seats').select('id').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('outbox').where('to_address', '=', user.email).execute();
    // Sign-in, reset and code counters are keyed by the email address ('_' in LIKE matches any character,
    // so the candidates are read and only the exact ones removed).
    const counters = await trx.selectFrom('throttles').select('key').where('key', 'like', `%${user.email}%`).execute();
    const personal = counters.map((row) => row.key).filter((key) => key.split(':').includes(user.email));
    if (personal.length > 0) await trx.deleteFrom('throttles').where('key', 'in', personal).execute();
    await trx.deleteFrom('users').where('id', '=', user.id).execute();
    await forgetActivity(trx, user.id);
    await recordActivity(trx, {
      userId: user.id,
      kind: 'account.deleted',
      details: { registeredAt: new Date(user.created_at).toISOString(), seatsReleased: seats.length, subscriptionsCancelled: true },
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
  const row = await deps.db.selectFrom('sessions').select('created_at').where('id', '=', session.id).executeTakeFirst();
  if (!row || deps.clock.now().getTime() - Date.parse(row.created_at) > RECENT_SIGN_IN_MS) throw new AppError('REAUTHENTICATION_REQUIRED', 403);
}
