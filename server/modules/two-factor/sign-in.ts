import { randomBytes } from 'node:crypto';
import type { SignInTokens } from '../../../contract/auth.js';
import { isStaff } from '../../../contract/roles.js';
import type { TwoFactorLoginRequest } from '../../../contract/two-factor.js';
import type { TwoFactorMethod, TwoFactorRequired } from '../../../contract/two-factor-values.js';
import { digest } from '../../digest.js';
import { AppError } from '../../errors.js';
import { accountGuessKey, GUESS_LIMITS } from '../../plugins/guess-limits.js';
import { type SessionClient } from '../auth/index.js';
import type { TwoFactorDeps } from './deps.js';
import { transportsOf } from './passkeys.js';
import { normaliseRecoveryCode } from './recovery-codes.js';
import * as repo from './repo.js';
import { matchingStep } from './totp.js';
import { authenticationOptions, CEREMONY_TTL_MS, readAssertion, relyingPartyOf, userHandleOf, verifyAssertion } from './webauthn.js';

/** Issue 44: a sign-in's second step is answered within 5 minutes, with at most 5 wrong answers. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
export const CHALLENGE_MAX_TRIES = 5;

/** The first step of a sign-in, whose session the second step starts. */
export interface FirstStep {
  method: 'password' | 'admin' | 'google' | 'facebook';
  remember: boolean;
}

const expired = () => new AppError('TWO_FACTOR_CHALLENGE_EXPIRED', 401);

/**
 * Called by every first step once it has checked all it checks today (password, verification, the admin
 * role, the provider's answer): for an account with a second factor (a confirmed authenticator app or a
 * passkey), a challenge to answer at `POST /auth/login/two-factor` instead of tokens; null otherwise.
 * The challenge is an opaque token kept only as its digest, with what the first step was.
 */
export async function secondStepFor(deps: TwoFactorDeps, user: { id: string }, first: FirstStep): Promise<TwoFactorRequired | null> {
  const factors = await repo.factorsOf(deps.db, user.id);
  if (!factors.totp && factors.passkeys === 0) return null;
  const methods: TwoFactorMethod[] = [];
  if (factors.totp) methods.push('totp');
  if (factors.recoveryCodesLeft > 0) methods.push('recovery');
  if (factors.passkeys > 0) methods.push('passkey');
  const challenge = randomBytes(32).toString('base64url');
  const now = deps.clock.now();
  await repo.insertChallenge(deps.db, {
    id: digest(challenge),
    user_id: user.id,
    method: first.method,
    remember: first.remember ? 1 : 0,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + CHALLENGE_TTL_MS).toISOString(),
  });
  return { twoFactorRequired: true, challenge, methods };
}

/** The challenge when it can still be answered (unused, unexpired, tries left); 401 TWO_FACTOR_CHALLENGE_EXPIRED otherwise. */
async function openChallenge(deps: TwoFactorDeps, token: string): Promise<repo.ChallengeRow> {
  const row = await repo.challengeOf(deps.db, digest(token));
  if (!row || row.used_at !== null || Date.parse(row.expires_at) <= deps.clock.now().getTime() || row.tries >= CHALLENGE_MAX_TRIES) throw expired();
  return row;
}

/**
 * `POST /auth/login/two-factor/passkey`: WebAuthn options for answering the challenge with one of the
 * account's passkeys. The WebAuthn challenge is kept with the sign-in's (a newer request replaces it).
 */
export async function passkeyOptionsFor(deps: TwoFactorDeps, token: string): Promise<{ options: Record<string, unknown> }> {
  const row = await openChallenge(deps, token);
  const passkeys = await repo.passkeysOf(deps.db, row.user_id);
  if (passkeys.length === 0) throw new AppError('PASSKEY_NOT_FOUND', 404);
  const options = await authenticationOptions(relyingPartyOf(deps.appUrl), {
    allow: passkeys.map((passkey) => ({ credentialId: passkey.credential_id, transports: transportsOf(passkey) })),
    userVerification: 'preferred',
  });
  if (!(await repo.setChallengeWebauthn(deps.db, row.id, options.challenge, deps.clock.now().toISOString(), CHALLENGE_MAX_TRIES))) throw expired();
  return { options: { ...options } };
}

/** What an answer takes when the challenge is claimed: a TOTP step, a recovery code, or a passkey's new counter. */
type Answer =
  | { factor: 'totp'; step: number }
  | { factor: 'recovery'; codeHash: string }
  | { factor: 'passkey'; passkeyId: string; checkedCounter: number; newCounter: number; backedUp: boolean };

/**
 * Checks an answer against the account without changing anything (the checks that need no lock: the
 * code's step, the passkey's signature); null when it is wrong. The single-use parts are taken in the
 * transaction that claims the challenge.
 */
async function check(deps: TwoFactorDeps, row: repo.ChallengeRow, input: TwoFactorLoginRequest): Promise<Answer | null> {
  if ('code' in input) {
    const totp = await repo.totpOf(deps.db, row.user_id);
    if (!totp || totp.confirmed_at === null) return null;
    const step = matchingStep(totp.secret, input.code, deps.clock.now());
    return step === null ? null : { factor: 'totp', step };
  }
  if ('recoveryCode' in input) return { factor: 'recovery', codeHash: digest(normaliseRecoveryCode(input.recoveryCode)) };
  const assertion = readAssertion(input.passkey);
  if (!assertion || row.webauthn_challenge === null) return null;
  const passkey = await repo.passkeyByCredential(deps.db, assertion.credentialId);
  // Another account's passkey is no answer for this one.
  if (!passkey || passkey.user_id !== row.user_id) return null;
  const verified = await verifyAssertion(relyingPartyOf(deps.appUrl), assertion.response, {
    challenge: row.webauthn_challenge,
    credentialId: passkey.credential_id,
    publicKey: passkey.public_key,
    counter: passkey.counter,
    transports: transportsOf(passkey),
    requireUserVerification: false,
  });
  return verified ? { factor: 'passkey', passkeyId: passkey.id, checkedCounter: passkey.counter, ...verified } : null;
}

async function take(trx: TwoFactorDeps['db'], userId: string, answer: Answer, now: string): Promise<boolean> {
  if (answer.factor === 'totp') return repo.takeTotpStep(trx, userId, answer.step);
  if (answer.factor === 'recovery') return repo.useRecoveryCode(trx, userId, answer.codeHash, now);
  return repo.recordPasskeyUse(trx, answer.passkeyId, answer.checkedCounter, answer.newCounter, answer.backedUp, now);
}

class WrongAnswer extends Error {}

/**
 * `POST /auth/login/two-factor`: the challenge and one answer (an authenticator code, a recovery code or
 * a passkey). In one transaction the challenge is claimed (used once: of two answers at once, one gets
 * it) and the answer's single-use part is taken; a wrong answer undoes the claim and counts a try against
 * the challenge (5, then it is dead) and a guess against the account (GUESS_LIMITS.twoFactor: 429 with
 * Retry-After once it is used up, from any address). The right answer starts the session the first step
 * would have started, with the second factor named in it and in the timeline.
 */
export async function completeSignIn(deps: TwoFactorDeps, input: TwoFactorLoginRequest, client: SessionClient): Promise<SignInTokens> {
  const row = await openChallenge(deps, input.challenge);
  const user = await deps.users.findById(row.user_id);
  // A password changed or reset since the first step ends the sign-ins begun with the old one, as it ends sessions.
  if (!user || (user.tokens_valid_after !== null && Date.parse(row.created_at) < Date.parse(user.tokens_valid_after))) throw expired();
  const limit = GUESS_LIMITS.twoFactor;
  const accountKey = accountGuessKey(limit, row.user_id);
  await deps.throttle.check(accountKey, limit.perAccount);
  const answer = await check(deps, row, input);
  const now = deps.clock.now().toISOString();
  try {
    await deps.db.transaction().execute(async (trx) => {
      if (!(await repo.claimChallenge(trx, row.id, now, CHALLENGE_MAX_TRIES))) throw expired();
      if (!answer || !(await take(trx, row.user_id, answer, now))) throw new WrongAnswer();
    });
  } catch (error) {
    if (!(error instanceof WrongAnswer)) throw error;
    await repo.countWrongAnswer(deps.db, row.id);
    // The guess is counted; the limit refuses the next one (as the guess-limits plugin does).
    await deps.throttle.hit(accountKey, limit.perAccount).catch((reached: unknown) => {
      if (!(reached instanceof AppError)) throw reached;
    });
    throw new AppError('INVALID_TWO_FACTOR_CODE', 401);
  }
  const factor = answer?.factor ?? null;
  // What the first step checked may have changed within the five minutes.
  if (row.method === 'admin' && !isStaff(user.roles)) throw new AppError('NOT_AN_ADMIN', 403);
  if (user.email_verified_at === null) throw new AppError('USER_NOT_VERIFIED', 403);
  const remember = row.method === 'password' && row.remember === 1;
  const session = await deps.sessions.start(user, { method: row.method, remember, client, secondFactor: factor });
  return session.offline_token ? { access_token: session.access_token, offline_token: session.offline_token } : { access_token: session.access_token };
}

/**
 * `POST /auth/passkey/options`: a sign-in with a passkey alone. No credentials are named (the browser
 * offers this site's discoverable passkeys, autofill included) and user verification is required: the
 * passkey is then both factors. The ceremony is named by an opaque token, lives 5 minutes, used once.
 */
export async function passkeySignInOptions(deps: TwoFactorDeps): Promise<{ ceremony: string; options: Record<string, unknown> }> {
  const options = await authenticationOptions(relyingPartyOf(deps.appUrl), { userVerification: 'required' });
  const ceremony = randomBytes(32).toString('base64url');
  const now = deps.clock.now();
  await repo.insertCeremony(deps.db, {
    id: digest(ceremony),
    purpose: 'sign-in',
    user_id: null,
    challenge: options.challenge,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + CEREMONY_TTL_MS).toISOString(),
  });
  return { ceremony, options: { ...options } };
}

/**
 * `POST /auth/passkey`: the browser's answer. The ceremony is used first (once, unexpired); the passkey
 * is found by its credential id, must name its own account as the user handle, and is verified with user
 * verification required; its counter must grow (from a non-zero one) and is kept, with when it was used.
 * `admin` signs in at the admin door: staff only, as `/auth/admin-login`, never remembered.
 */
export async function passkeySignIn(
  deps: TwoFactorDeps,
  input: { ceremony: string; response: Record<string, unknown>; rememberMe: boolean; admin: boolean },
  client: SessionClient,
): Promise<SignInTokens> {
  const failed = () => new AppError('PASSKEY_VERIFICATION_FAILED', 401);
  const now = deps.clock.now().toISOString();
  const challenge = await repo.claimCeremony(deps.db, digest(input.ceremony), 'sign-in', null, now);
  if (!challenge) throw new AppError('PASSKEY_CEREMONY_EXPIRED', 401);
  const assertion = readAssertion(input.response);
  if (!assertion) throw failed();
  const passkey = await repo.passkeyByCredential(deps.db, assertion.credentialId);
  if (!passkey || (assertion.userHandle !== null && assertion.userHandle !== userHandleOf(passkey.user_id))) throw failed();
  const verified = await verifyAssertion(relyingPartyOf(deps.appUrl), assertion.response, {
    challenge,
    credentialId: passkey.credential_id,
    publicKey: passkey.public_key,
    counter: passkey.counter,
    transports: transportsOf(passkey),
    requireUserVerification: true,
  });
  if (!verified || !(await repo.recordPasskeyUse(deps.db, passkey.id, passkey.counter, verified.newCounter, verified.backedUp, now))) throw failed();
  const user = await deps.users.findById(passkey.user_id);
  if (!user) throw failed();
  if (user.email_verified_at === null) throw new AppError('USER_NOT_VERIFIED', 403);
  if (input.admin && !isStaff(user.roles)) throw new AppError('NOT_AN_ADMIN', 403);
  const session = input.admin
    ? await deps.sessions.start(user, { method: 'admin', remember: false, client, secondFactor: 'passkey' })
    : await deps.sessions.start(user, { method: 'passkey', remember: input.rememberMe, client });
  return session.offline_token ? { access_token: session.access_token, offline_token: session.offline_token } : { access_token: session.access_token };
}

/** Housekeeping: challenges and ceremonies that ended over an hour ago. */
export async function pruneTwoFactor(deps: Pick<TwoFactorDeps, 'db' | 'clock'>): Promise<void> {
  await repo.pruneEnded(deps.db, new Date(deps.clock.now().getTime() - 3_600_000).toISOString());
}
