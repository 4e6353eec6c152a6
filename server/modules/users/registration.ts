import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { RegistrationRequest } from '../../../contract/registration.js';
import type { Clock } from '../../clock.js';
import { digest } from '../../digest.js';
import { AppError } from '../../errors.js';
import type { Language } from '../../i18n.js';
import { type SessionClient, type Sessions, type Throttle, type ThrottleRule } from '../auth/index.js';
import { assertAcceptablePassword, hashPassword } from './passwords.js';
import { z } from 'zod';
import { type JobHandler, type JobQueue } from '../jobs/index.js';
import { queueMail, MailRejectedError, appLink, renderMail } from '../mail/index.js';
import type { UsersRepo, UserWithRoles } from './repo.js';
import { checkCode } from './mailed-codes.js';
import type { VerificationsRepo } from './verifications-repo.js';
import { isBrowserOf } from './verification-browser.js';

export { MAX_CODE_ATTEMPTS } from './mailed-codes.js';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { couponProblem, redeemInTransaction } from '../coupons/index.js';
import { recordActivity, type StaffActor } from '../activity/index.js';

const COUPON_STATUS = { COUPON_INVALID: 422, COUPON_EXPIRED: 410, COUPON_USED_UP: 409 } as const;

export const VERIFICATION_TTL_SECONDS = 24 * 3600;
const CODE_ENTRY: ThrottleRule = { limit: 10, windowSeconds: 15 * 60 };
const RESEND: ThrottleRule = { limit: 5, windowSeconds: 3600 };

export interface RegistrationDeps {
  db: Kysely<Database>;
  users: UsersRepo;
  verifications: VerificationsRepo;
  sessions: Sessions;
  throttle: Throttle;
  clock: Clock;
  appUrl: string;
  jobs: JobQueue;
}

export const VERIFICATION_RESEND_JOB = 'verification-resend';

type VerificationTarget = Pick<UserWithRoles, 'id' | 'email' | 'first_name' | 'language'>;

/**
 * A new code and link replace any pending ones, and their mail is queued, in the caller's transaction:
 * the code that counts is the one mailed. The mail carries the link, and the code when asked. `browserHash`
 * is the digest of the key of the browser that asked for the mail, whose link signs in there
 * (./verification-browser.ts), null when no browser asked. Returns the mail's job.
 */
async function queueVerification(
  deps: RegistrationDeps,
  trx: Transaction<Database>,
  user: VerificationTarget,
  withCode: boolean,
  options: { heldForRequest?: boolean; browserHash?: string | null } = {},
): Promise<string> {
  const now = deps.clock.now();
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const linkToken = randomBytes(32).toString('base64url');
  await deps.verifications.replace(
    {
      userId: user.id,
      codeHash: digest(`${user.id}:${code}`),
      linkHash: digest(linkToken),
      browserHash: options.browserHash ?? null,
      expiresAt: new Date(now.getTime() + VERIFICATION_TTL_SECONDS * 1000).toISOString(),
      createdAt: now.toISOString(),
    },
    trx,
  );
  const language = user.language as Language;
  const values = {
    name: user.first_name ?? user.email,
    code,
    link: appLink(deps.appUrl, language, `/users/validate/${linkToken}`),
  };
  return queueMail(trx, now, user.email, renderMail(withCode ? 'verification' : 'verificationLink', language, values), options.heldForRequest ? { heldForRequest: true } : {});
}

export async function register(
  deps: RegistrationDeps,
  input: RegistrationRequest & { email: string },
  options: { withCode: boolean; external: boolean; language: Language; browserHash: string | null },
): Promise<UserWithRoles> {
  await assertAcceptablePassword(input.password);
  if (await deps.users.findByEmail(input.email)) throw new AppError('EMAIL_ALREADY_REGISTERED', 409);
  const couponCode = input.couponCode?.trim() || null;
  // A coupon entered at sign-up is checked before the account exists, so a typo costs nothing.
  const problem = couponCode ? await couponProblem(deps.db, couponCode, deps.clock.now()) : null;
  if (problem) throw new AppError(problem, COUPON_STATUS[problem]);
  const now = deps.clock.now().toISOString();
  const id = randomUUID();
  const source = input.source === 'siggraph2023' ? 'siggraph2023' : options.external ? 'checkout' : 'web';
  const language = input.language ?? options.language;
  let mailJob: string;
  try {
    // The account, its code and the code's mail commit together (transactional outbox).
    mailJob = await deps.db.transaction().execute(async (trx) => {
      await deps.users.insert(
        {
          id,
          email: input.email,
          password_hash: await hashPassword(input.password),
          first_name: input.firstName.trim(),
          last_name: input.lastName.trim(),
          email_verified_at: null,
          signup_source: source,
          newsletter: input.newsletter ? 1 : 0,
          language,
          coupon_code: couponCode,
          created_at: now,
          updated_at: now,
        },
        ['user'],
        trx,
      );
      // Held for this request, which sends it before answering (no worker takes it first).
      return queueVerification(deps, trx, { id, email: input.email, first_name: input.firstName.trim(), language }, options.withCode, {
        heldForRequest: true,
        browserHash: options.browserHash,
      });
    });
  } catch (error) {
    // Two registrations of one address at once: the unique index decides, the loser gets the same answer.
    if (await deps.users.findByEmail(input.email)) throw new AppError('EMAIL_ALREADY_REGISTERED', 409, { cause: error });
    throw error;
  }
  const user = await deps.users.findById(id);
  if (!user) throw new Error('registered user vanished');
  try {
    // Sent before the answer, so an address the mail server refuses is refused here. Killed before it is
    // sent, the job stays queued and another instance sends it when its hold or lease ends.
    await deps.jobs.runNow(mailJob);
    // The rest of what the account queued (its sign-up count) goes on after the answer.
    deps.jobs.nudge();
  } catch (error) {
    // No account without a way to verify it: the visitor corrects the address or simply tries again.
    await deps.jobs.discard(mailJob);
    await deps.users.remove(id);
    if (error instanceof MailRejectedError) throw new AppError('EMAIL_VERIFICATION_FAILED', 422, { cause: error });
    throw new AppError('DEFAULT', 503, { cause: error });
  }
  if (couponCode) {
    try {
      await deps.db.transaction().execute((trx) => redeemInTransaction(trx, id, couponCode, deps.clock.now()));
    } catch (error) {
      // Used up by someone else since the check: the account stands, and the code stays on it to retry from the profile.
      if (!(error instanceof AppError)) throw error;
    }
  }
  return user;
}

/** `/users/confirm`: the 6-digit code signs the user in. Unknown address and wrong code answer alike. */
export async function verifyCode(deps: RegistrationDeps, email: string, code: string, client: SessionClient): Promise<{ access_token: string }> {
  await deps.throttle.hit(`code:${email}`, CODE_ENTRY);
  const user = await deps.users.findByEmail(email);
  const pending = user ? await deps.verifications.forUser(user.id) : undefined;
  if (!user) throw new AppError('INVALID_VERIFICATION_CODE', 400);
  await checkCode(pending, digest(`${user.id}:${code}`), deps.clock.now(), () => deps.verifications.countFailure(user.id));
  if (!(await deps.verifications.complete(user.id, deps.clock.now().toISOString()))) {
    throw new AppError('INVALID_VERIFICATION_CODE', 400);
  }
  deps.users.changed(user.id);
  await deps.throttle.reset(`code:${email}`);
  // Confirming the account signs it in (spec section 4): a session of its own.
  const session = await deps.sessions.start(user, { method: 'code', remember: false, client });
  return { access_token: session.access_token };
}

/**
 * `/users/validate/{token}`: the link from the mail verifies the address. A token that matches nothing
 * (made up, or cut short by a mail client) is an invalid link, whatever its shape (issue 20 item 8). Opened
 * in the browser that asked for the mail (its key, `browserKey`, is the one the verification keeps), it also
 * signs the account in, as the code does (issue 48 item 5); anywhere else it only verifies
 * (./verification-browser.ts says why).
 */
export async function verifyLink(
  deps: RegistrationDeps,
  token: string,
  browserKey: string | null,
  client: SessionClient,
): Promise<{ verified: true; access_token?: string }> {
  const pending = await deps.verifications.forLink(digest(token));
  if (!pending) throw new AppError('VERIFICATION_LINK_INVALID', 400);
  if (pending.used_at !== null) throw new AppError('ALREADY_VERIFIED', 409);
  if (new Date(pending.expires_at) <= deps.clock.now()) throw new AppError('VERIFICATION_CODE_EXPIRED', 400);
  if (!(await deps.verifications.complete(pending.user_id, deps.clock.now().toISOString()))) {
    throw new AppError('ALREADY_VERIFIED', 409);
  }
  deps.users.changed(pending.user_id);
  const user = isBrowserOf(pending, browserKey) ? await deps.users.findById(pending.user_id) : undefined;
  if (!user) return { verified: true };
  const session = await deps.sessions.start(user, { method: 'link', remember: false, client });
  return { verified: true, access_token: session.access_token };
}

/**
 * Resend: the same answer for every address (no account enumeration). An unverified account gets a new
 * code and link; a verified one is told so by mail and pointed to sign-in; an unknown address gets nothing.
 */
export async function resendVerification(deps: RegistrationDeps, email: string, withCode: boolean, browserHash: string): Promise<{ sent: true }> {
  await deps.throttle.hit(`resend:${email}`, RESEND);
  // The same job for every address, looked up after the answer, so a registered address takes no longer.
  await deps.jobs.add({ kind: VERIFICATION_RESEND_JOB, payload: { email, withCode, browserHash } });
  return { sent: true };
}

/**
 * An admin's resend from the user page (issue 21): only for an unverified account (a verified one answers
 * USER_ALREADY_VERIFIED), counted against the same limit as the public resend of that address, so support
 * cannot flood a mailbox the throttle protects. A new code and link replace the pending ones and their
 * mail is queued with the timeline's entry, in one transaction.
 */
export async function resendVerificationFor(deps: RegistrationDeps, staff: StaffActor, userId: string): Promise<{ sent: true }> {
  const user = await deps.users.findById(userId);
  if (!user) throw new AppError('USER_NOT_FOUND', 404);
  if (user.email_verified_at !== null) throw new AppError('USER_ALREADY_VERIFIED', 409);
  await deps.throttle.hit(`resend:${user.email}`, RESEND);
  await deps.db.transaction().execute(async (trx) => {
    await queueVerification(deps, trx, user, true);
    await recordActivity(trx, { userId, staff, kind: 'verification.resent', at: deps.clock.now() });
  });
  deps.jobs.nudge();
  return { sent: true };
}

/** The job behind a resend: a new code and link for an unverified account, a pointer to sign-in for a verified one. */
export function verificationResendJob(deps: RegistrationDeps): JobHandler {
  return async (payload, context) => {
    // `browserHash` is absent from the jobs queued before issue 48: their links only verify.
    const { email, withCode, browserHash } = z.object({ email: z.string(), withCode: z.boolean(), browserHash: z.string().nullish() }).parse(payload);
    const user = await deps.users.findByEmail(email);
    if (!user) return;
    const language = user.language as Language;
    await deps.db.transaction().execute(async (trx) => {
      if (user.email_verified_at === null) {
        await queueVerification(deps, trx, user, withCode, { browserHash: browserHash ?? null });
      } else {
        const mail = renderMail('alreadyVerified', language, { name: user.first_name ?? user.email, link: appLink(deps.appUrl, language, '/login') });
        await queueMail(trx, deps.clock.now(), user.email, mail);
      }
      await context.markDone(trx);
    });
    deps.jobs.nudge();
  };
}
