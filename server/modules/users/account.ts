import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ProfileUpdate } from '../../../contract/account.js';
import { isKnownRegion } from '../../../contract/countries.js';
import { isValidPhone } from '../../../contract/phone.js';
import type { Me } from '../../../contract/users.js';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { digest } from '../../digest.js';
import { AppError } from '../../errors.js';
import type { Language } from '../../i18n.js';
import { type Sessions, type OfflineTokens, type Throttle, type ThrottleRule } from '../auth/index.js';
import { assertAcceptablePassword, countCurrentPasswordAttempt, hashPassword, verifyPassword } from './passwords.js';
import { z } from 'zod';
import { type JobHandler, type JobQueue } from '../jobs/index.js';
import { queueMail, appLink, renderMail } from '../mail/index.js';
import type { PasswordResetsRepo } from './password-resets-repo.js';
import type { AuthSession, UsersRepo, UserWithRoles } from './repo.js';
import { recordActivity } from '../activity/index.js';
import { meOf, type BillingFacts } from './service.js';

export const RESET_LINK_TTL_SECONDS = 3600;
const FORGOT: ThrottleRule = { limit: 5, windowSeconds: 3600 };

export interface AccountDeps {
  db: Kysely<Database>;
  users: UsersRepo;
  resets: PasswordResetsRepo;
  sessions: Sessions;
  offlineTokens: OfflineTokens;
  throttle: Throttle;
  clock: Clock;
  appUrl: string;
  jobs: JobQueue;
  /** Billing's facts for the user's answer (see MeDeps). */
  billingFacts: BillingFacts;
}

export const PASSWORD_RESET_JOB = 'password-reset';

/**
 * Password changed: every session but `keepSession` ends (its tokens refused from the next request, its
 * offline tokens revoked, its event streams closed), and every access token issued before now stops
 * working; the kept session's offline token, when given, is rotated.
 */
async function endOtherSessions(
  deps: AccountDeps,
  userId: string,
  passwordHash: string,
  keep: { sessionId: string; offlineToken?: string } | null,
  activity: { kind: 'password.changed' | 'password.reset'; details?: Record<string, unknown> },
) {
  const now = deps.clock.now();
  // Whole seconds, as in the tokens' iat: the token issued right after this is still valid.
  const validAfter = new Date(Math.floor(now.getTime() / 1000) * 1000).toISOString();
  await deps.users.update(userId, { password_hash: passwordHash, tokens_valid_after: validAfter }, now.toISOString());
  await recordActivity(deps.db, { userId, ...activity, at: now });
  await deps.sessions.endAllExcept(userId, keep?.sessionId ?? null, 'password-changed');
  return deps.offlineTokens.revokeAllForUser(userId, keep?.offlineToken);
}

/**
 * `GET /users/forget-password/{email}`: the same answer, in the same time, whether or not the account exists.
 * Every request queues the same job and nothing else; the lookup, the link and the mail happen in the
 * job after the answer (a found account costs queries and a mail, which showed in the timing), and
 * survive a crash after the answer.
 */
export async function requestPasswordReset(deps: AccountDeps, email: string): Promise<{ ok: true }> {
  await deps.throttle.hit(`forgot:${email}`, FORGOT);
  await deps.jobs.add({ kind: PASSWORD_RESET_JOB, payload: { email } });
  return { ok: true };
}

/** The job behind a forgot-password request: a registered address gets a link; an unknown one nothing. */
export function passwordResetJob(deps: AccountDeps): JobHandler {
  return async (payload, context) => {
    const { email } = z.object({ email: z.string() }).parse(payload);
    const user = await deps.users.findByEmail(email);
    if (!user) return;
    const token = randomBytes(32).toString('base64url');
    const now = deps.clock.now();
    const language = user.language as Language;
    const mail = renderMail('passwordReset', language, {
      name: user.first_name ?? user.email,
      link: appLink(deps.appUrl, language, `/forgot-password/validate/${token}`),
    });
    // The link, its mail and this job's end commit together: run again after a crash, it makes no second link.
    await deps.db.transaction().execute(async (trx) => {
      await deps.resets.insert(trx, {
        id: randomUUID(),
        userId: user.id,
        tokenHash: digest(token),
        expiresAt: new Date(now.getTime() + RESET_LINK_TTL_SECONDS * 1000).toISOString(),
        createdAt: now.toISOString(),
      });
      await queueMail(trx, now, user.email, mail);
      await context.markDone(trx);
    });
    deps.jobs.nudge();
  };
}

async function usableReset(deps: AccountDeps, token: string) {
  const row = await deps.resets.byTokenHash(digest(token));
  if (!row || row.used_at !== null || new Date(row.expires_at) <= deps.clock.now()) return undefined;
  return row;
}

export async function checkResetToken(deps: AccountDeps, token: string): Promise<{ valid: boolean }> {
  return { valid: (await usableReset(deps, token)) !== undefined };
}

/** Sets the new password from a reset link: single use, ends every session. */
export async function resetPassword(deps: AccountDeps, token: string, newPassword: string): Promise<{ ok: true }> {
  await assertAcceptablePassword(newPassword);
  const row = await usableReset(deps, token);
  if (!row) throw new AppError('INVALID_PASSWORD_TOKEN', 400);
  if (!(await deps.resets.claim(row.id, deps.clock.now().toISOString()))) throw new AppError('INVALID_PASSWORD_TOKEN', 400);
  await endOtherSessions(deps, row.user_id, await hashPassword(newPassword), null, { kind: 'password.reset' });
  // Other links of the same account die with this one.
  await deps.resets.useUpAll(row.user_id, deps.clock.now().toISOString());
  return { ok: true };
}

export async function checkOldPassword(deps: AccountDeps, user: UserWithRoles, oldPassword: string): Promise<{ result: boolean }> {
  await countCurrentPasswordAttempt(deps.throttle, user.id);
  return { result: user.password_hash !== null && (await verifyPassword(user.password_hash, oldPassword)) };
}

/** Changes the password; this session continues with a fresh token, every other one ends. */
export async function changePassword(
  deps: AccountDeps,
  user: UserWithRoles,
  session: AuthSession,
  input: { password: string; oldPassword?: string; offlineToken?: string },
): Promise<{ access_token: string; offline_token?: string }> {
  await countCurrentPasswordAttempt(deps.throttle, user.id);
  // Without a password yet (Google or Facebook only) there is nothing to confirm; otherwise the old one is required.
  const confirmed =
    user.password_hash === null || (input.oldPassword !== undefined && (await verifyPassword(user.password_hash, input.oldPassword)));
  if (!confirmed) throw new AppError('WRONG_OLD_PASSWORD', 400);
  await assertAcceptablePassword(input.password);
  const offline = await endOtherSessions(
    deps,
    user.id,
    await hashPassword(input.password),
    { sessionId: session.id, offlineToken: input.offlineToken },
    // A Google or Facebook account setting its first password gains a way to sign in.
    { kind: 'password.changed', details: { first: user.password_hash === null } },
  );
  const access_token = await deps.sessions.renewToken(user, session);
  return offline ? { access_token, offline_token: offline } : { access_token };
}

/** Profile fields the user owns; anything else is refused by the schema before it gets here. */
export async function updateProfile(deps: AccountDeps, user: UserWithRoles, changes: ProfileUpdate): Promise<Me> {
  if (changes.phone && !isValidPhone(changes.phone)) throw new AppError('PHONE_NUMBER_INVALID', 400);
  if (changes.country && !isKnownRegion(changes.country)) throw new AppError('REGION_NOT_FOUND', 400);
  await deps.users.update(
    user.id,
    {
      first_name: changes.firstName,
      last_name: changes.lastName,
      phone: changes.phone === undefined ? undefined : changes.phone || null,
      newsletter: changes.newsletter === undefined ? undefined : changes.newsletter ? 1 : 0,
      language: changes.language,
      country: changes.country === undefined ? undefined : changes.country?.toUpperCase() || null,
      coupon_code: changes.couponCode === undefined ? undefined : changes.couponCode || null,
    },
    deps.clock.now().toISOString(),
  );
  const updated = await deps.users.findById(user.id);
  if (!updated) throw new AppError('UNAUTHORIZED', 401);
  return meOf(deps, updated);
}
