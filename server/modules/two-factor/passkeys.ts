import { randomUUID } from 'node:crypto';
import type { PasskeyView } from '../../../contract/two-factor.js';
import { digest } from '../../digest.js';
import { AppError } from '../../errors.js';
import { type AuthSession, type UserWithRoles } from '../users/index.js';
import { recordChange, type TwoFactorDeps } from './deps.js';
import { confirmOwner } from './enrolment.js';
import * as repo from './repo.js';
import { CEREMONY_TTL_MS, readRegistration, registrationOptions, relyingPartyOf, verifyRegistration } from './webauthn.js';

/** The stored transports, as WebAuthn takes them back. */
export function transportsOf(row: { transports: string | null }): string[] | undefined {
  if (!row.transports) return undefined;
  const parsed: unknown = JSON.parse(row.transports);
  return Array.isArray(parsed) && parsed.every((item) => typeof item === 'string') ? parsed : undefined;
}

function toView(row: repo.PasskeyRow): PasskeyView {
  return {
    id: row.id,
    name: row.name,
    createdAt: new Date(row.created_at).toISOString(),
    lastUsedAt: row.last_used_at ? new Date(row.last_used_at).toISOString() : null,
  };
}

/** `GET /users/me/passkeys`: oldest first. */
export async function listPasskeys(deps: TwoFactorDeps, userId: string): Promise<PasskeyView[]> {
  return (await repo.passkeysOf(deps.db, userId)).map(toView);
}

/**
 * `POST /users/me/passkeys/registration`: the options for the browser's `navigator.credentials.create`.
 * Their challenge is kept for 5 minutes, for this account only, and answers one registration.
 */
export async function startRegistration(deps: TwoFactorDeps, user: UserWithRoles): Promise<{ options: Record<string, unknown> }> {
  // A passkey signs in by itself, so only an account whose email is proven may have one.
  if (user.email_verified_at === null) throw new AppError('USER_NOT_VERIFIED', 403);
  const existing = await repo.passkeysOf(deps.db, user.id);
  const displayName = [user.first_name, user.last_name].filter(Boolean).join(' ') || user.email;
  const options = await registrationOptions(
    relyingPartyOf(deps.appUrl),
    { id: user.id, email: user.email, displayName },
    existing.map((row) => ({ credentialId: row.credential_id, transports: transportsOf(row) })),
  );
  const now = deps.clock.now();
  await repo.insertCeremony(deps.db, {
    id: digest(options.challenge),
    purpose: 'registration',
    user_id: user.id,
    challenge: options.challenge,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + CEREMONY_TTL_MS).toISOString(),
  });
  return { options: { ...options } };
}

/**
 * `POST /users/me/passkeys`: the browser's answer to the registration options. The ceremony it signed is
 * used first (once, unexpired, this account's), then the answer is verified (origin, RP ID, signature);
 * the credential is stored unless it is registered already, to anyone.
 */
export async function registerPasskey(deps: TwoFactorDeps, user: UserWithRoles, input: { name: string; response: Record<string, unknown> }): Promise<PasskeyView> {
  const answer = readRegistration(input.response);
  if (!answer) throw new AppError('PASSKEY_VERIFICATION_FAILED', 400);
  const now = deps.clock.now();
  const challenge = await repo.claimCeremony(deps.db, digest(answer.challenge), 'registration', user.id, now.toISOString());
  if (!challenge) throw new AppError('PASSKEY_CEREMONY_EXPIRED', 400);
  const credential = await verifyRegistration(relyingPartyOf(deps.appUrl), answer.response, challenge);
  if (!credential) throw new AppError('PASSKEY_VERIFICATION_FAILED', 400);
  const id = randomUUID();
  await deps.db.transaction().execute(async (trx) => {
    const owner = await repo.lockAccount(trx, user.id);
    if (!owner) throw new AppError('UNAUTHORIZED', 401);
    const added = await repo.insertPasskey(trx, { id, userId: user.id, ...credential, name: input.name, now: now.toISOString() });
    if (!added) throw new AppError('PASSKEY_ALREADY_REGISTERED', 409);
    await repo.syncFactorFlag(trx, user.id);
    await recordChange(trx, deps, { owner: { id: user.id, ...owner }, kind: 'passkey.added', mail: 'passkeyAdded', details: { name: input.name }, at: now, values: { passkey: input.name } });
  });
  deps.users.changed(user.id);
  return { id, name: input.name, createdAt: now.toISOString(), lastUsedAt: null };
}

/** `PATCH /users/me/passkeys/{id}`: 404 for a passkey that is not the caller's. */
export async function renameOwnPasskey(deps: TwoFactorDeps, userId: string, id: string, name: string): Promise<PasskeyView> {
  const row = await repo.renamePasskey(deps.db, userId, id, name);
  if (!row) throw new AppError('PASSKEY_NOT_FOUND', 404);
  return toView(row);
}

/**
 * `DELETE /users/me/passkeys/{id}`, with the proof of `confirmOwner`. When it was the account's last
 * second factor, the recovery codes go with it (they would guard nothing).
 */
export async function removeOwnPasskey(deps: TwoFactorDeps, user: UserWithRoles, session: AuthSession, id: string, proof: { password?: string | undefined; code?: string | undefined }): Promise<void> {
  await confirmOwner(deps, user, session, proof);
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    const owner = await repo.lockAccount(trx, user.id);
    if (!owner) throw new AppError('UNAUTHORIZED', 401);
    const name = await repo.deletePasskey(trx, user.id, id);
    if (name === undefined) throw new AppError('PASSKEY_NOT_FOUND', 404);
    const stillOn = await repo.syncFactorFlag(trx, user.id);
    if (!stillOn) await repo.deleteRecoveryCodes(trx, user.id);
    await recordChange(trx, deps, { owner: { id: user.id, ...owner }, kind: 'passkey.removed', mail: 'passkeyRemoved', details: { name, secondFactorLeft: stillOn }, at: now, values: { passkey: name } });
  });
  deps.users.changed(user.id);
}
