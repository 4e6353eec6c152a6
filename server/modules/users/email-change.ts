import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Me } from '../../../contract/users.js';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { digest } from '../../digest.js';
import { AppError } from '../../errors.js';
import type { Language } from '../../i18n.js';
import { type Throttle, type ThrottleRule } from '../auth/index.js';
import { countCurrentPasswordAttempt, verifyPassword } from './passwords.js';
import { enqueue, type JobQueue } from '../jobs/index.js';
import { queueMail, appLink, renderMail } from '../mail/index.js';
import type { UsersRepo, UserWithRoles } from './repo.js';
import { meOf, type BillingFacts } from './service.js';
import { recordActivity } from '../activity/index.js';
import type { EmailChangesRepo } from './email-changes-repo.js';
import { checkCode } from './mailed-codes.js';

/** How long the code mailed to the new address works. */
export const EMAIL_CHANGE_TTL_SECONDS = 3600;
/** Requests per account: each one mails a stranger's address, so few. */
const CHANGE_REQUEST: ThrottleRule = { limit: 5, windowSeconds: 3600 };
/** Code entries per account, on top of the code's own MAX_CODE_ATTEMPTS. */
const CODE_ENTRY: ThrottleRule = { limit: 10, windowSeconds: 15 * 60 };

/** Queued by a confirmed change; billing handles it (its Paddle customer's email follows the sign-in email). */
export const BILLING_EMAIL_FOLLOWS_JOB = 'billing-email-follows-sign-in';

export interface EmailChangeDeps {
  db: Kysely<Database>;
  users: UsersRepo;
  changes: EmailChangesRepo;
  throttle: Throttle;
  clock: Clock;
  appUrl: string;
  jobs: JobQueue;
  /** Billing's facts for the user's answer (see MeDeps). */
  billingFacts: BillingFacts;
}

const codeHash = (userId: string, code: string) => digest(`email-change:${userId}:${code}`);

/**
 * `POST /users/me/email`: the current password confirms it is the owner, then a code goes to the new
 * address. The answer is the same whether or not another account has that address (no enumeration from
 * a signed-in account either): a free address gets the code, a taken one gets a notice to its owner
 * instead and no code exists, so a confirm can only fail like a wrong code.
 *
 * An account that signs in only with Google or Facebook has no password to confirm with (the same rule
 * as its first password, `changePassword`): the code to the new address is its proof, and its social
 * sign-in keeps working because social accounts are matched by the provider's subject, not the email.
 */
export async function requestEmailChange(
  deps: EmailChangeDeps,
  user: UserWithRoles,
  input: { email: string; password?: string },
): Promise<{ sent: true; email: string; expiresAt: string }> {
  await deps.throttle.hit(`email-change:${user.id}`, CHANGE_REQUEST);
  if (user.password_hash !== null) {
    await countCurrentPasswordAttempt(deps.throttle, user.id);
    if (input.password === undefined || !(await verifyPassword(user.password_hash, input.password))) throw new AppError('WRONG_PASSWORD', 403);
  }
  if (input.email === user.email) throw new AppError('EMAIL_UNCHANGED', 400);
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + EMAIL_CHANGE_TTL_SECONDS * 1000).toISOString();
  const owner = await deps.users.findByEmail(input.email);
  const language = user.language as Language;
  const name = user.first_name ?? user.email;
  // The pending change and its mail commit together (transactional outbox): the code that counts is the one mailed.
  await deps.db.transaction().execute(async (trx) => {
    if (owner) {
      await deps.changes.discard(trx, user.id);
      const notice = renderMail('emailChangeTaken', owner.language as Language, {
        name: owner.first_name ?? owner.email,
        link: appLink(deps.appUrl, owner.language as Language, '/forgot-password'),
      });
      await queueMail(trx, now, input.email, notice);
      return;
    }
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await deps.changes.replace(trx, { userId: user.id, newEmail: input.email, codeHash: codeHash(user.id, code), expiresAt, createdAt: now.toISOString() });
    await queueMail(trx, now, input.email, renderMail('emailChangeCode', language, { name, code, email: input.email }));
  });
  deps.jobs.nudge();
  return { sent: true, email: input.email, expiresAt };
}

/**
 * `POST /users/me/email/confirm`: the right code makes the new address the sign-in email. Every session
 * stays signed in (tokens name the user, not the address). The old address hears of it, and the Paddle
 * customer's email follows when it was the old sign-in address, both as jobs in the same transaction.
 */
export async function confirmEmailChange(deps: EmailChangeDeps, user: UserWithRoles, code: string): Promise<Me> {
  await deps.throttle.hit(`email-change-code:${user.id}`, CODE_ENTRY);
  const pending = await deps.changes.forUser(user.id);
  await checkCode(pending, codeHash(user.id, code), deps.clock.now(), () => deps.changes.countFailure(user.id));
  if (!pending) throw new AppError('INVALID_VERIFICATION_CODE', 400);
  const now = deps.clock.now();
  const at = now.toISOString();
  const language = user.language as Language;
  try {
    await deps.db.transaction().execute(async (trx) => {
      // Two confirms at once: the first claims the change, the other answers like a used code.
      if (!(await deps.changes.claim(trx, user.id, at))) throw new AppError('INVALID_VERIFICATION_CODE', 400);
      // The code proved the new address, so a not yet verified account is verified by it too.
      await deps.users.changeEmail(trx, user.id, { email: pending.new_email, verifiedAt: user.email_verified_at ?? at }, at);
      const notice = renderMail('emailChanged', language, {
        name: user.first_name ?? user.email,
        email: pending.new_email,
        link: appLink(deps.appUrl, language, '/forgot-password'),
      });
      await queueMail(trx, now, user.email, notice);
      await enqueue(trx, now, { kind: BILLING_EMAIL_FOLLOWS_JOB, payload: { userId: user.id, from: user.email, to: pending.new_email } });
      await recordActivity(trx, { userId: user.id, kind: 'email.changed', details: { from: user.email, to: pending.new_email }, at: now });
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    // Registered by someone else since the request (the unique index decides). The code proved this user
    // owns the inbox, so saying so tells them nothing they could not learn by registering.
    if (await deps.users.findByEmail(pending.new_email)) throw new AppError('EMAIL_ALREADY_REGISTERED', 409, { cause: error });
    throw error;
  }
  deps.users.changed(user.id);
  await deps.throttle.reset(`email-change-code:${user.id}`);
  deps.jobs.nudge();
  const updated = await deps.users.findById(user.id);
  if (!updated) throw new AppError('UNAUTHORIZED', 401);
  return meOf(deps, updated);
}
