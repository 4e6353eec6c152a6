import { randomUUID } from 'node:crypto';
import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Database, PasskeysTable, SignInChallengesTable, WebauthnCeremoniesTable } from '../../db/schema.js';

/**
 * The second factor's SQL (issue 44): its tables (`two_factor_totp`, `recovery_codes`, `passkeys`,
 * `sign_in_challenges`, `webauthn_ceremonies`) and one column of the account's row,
 * `users.two_factor_enabled`, which only this module writes: the per-request read of the account carries
 * it, and it says what the factor tables hold. Every change that adds or removes a factor runs in one
 * transaction that first locks the account's row (`lockAccount`, a no-op update of that column) and ends
 * with `syncFactorFlag`, so the flag always says what the tables hold, however many requests change them
 * at once. Single-use things (a TOTP time step, a recovery code, a challenge, a ceremony, a passkey's
 * counter) are taken with one conditional UPDATE each: of two requests presenting the same one, exactly
 * one changes the row.
 */

type Db = Kysely<Database>;

const rowsChanged = (result: { numUpdatedRows: bigint } | { numDeletedRows: bigint }) =>
  Number('numUpdatedRows' in result ? result.numUpdatedRows : result.numDeletedRows);

/**
 * Locks the account's row until the transaction ends (PostgreSQL: a row lock every other change of its
 * factors waits for; SQLite runs one write transaction at a time) and reads who to mail. Undefined when
 * there is no such account.
 */
export async function lockAccount(trx: Db, userId: string): Promise<{ email: string; first_name: string | null; language: string } | undefined> {
  return trx
    .updateTable('users')
    .set((eb) => ({ two_factor_enabled: eb.ref('two_factor_enabled') }))
    .where('id', '=', userId)
    .returning(['email', 'first_name', 'language'])
    .executeTakeFirst();
}

/** Sets `users.two_factor_enabled` from the factor tables: a confirmed TOTP or a passkey. Returns it. */
export async function syncFactorFlag(trx: Db, userId: string): Promise<boolean> {
  const row = await trx
    .updateTable('users')
    .set({
      two_factor_enabled: sql<number>`case when exists (select 1 from two_factor_totp t where t.user_id = users.id and t.confirmed_at is not null)
        or exists (select 1 from passkeys p where p.user_id = users.id) then 1 else 0 end`,
    })
    .where('id', '=', userId)
    .returning('two_factor_enabled')
    .executeTakeFirst();
  return Number(row?.two_factor_enabled ?? 0) === 1;
}

/** What the account has: a confirmed TOTP, its passkeys, its unused recovery codes. */
export async function factorsOf(db: Db, userId: string): Promise<{ totp: boolean; passkeys: number; recoveryCodesLeft: number }> {
  const row = await db
    .selectNoFrom((eb) => [
      eb.exists(eb.selectFrom('two_factor_totp').select('user_id').where('user_id', '=', userId).where('confirmed_at', 'is not', null)).as('totp'),
      eb.selectFrom('passkeys').select((inner) => inner.fn.countAll<number | string>().as('n')).where('user_id', '=', userId).as('passkeys'),
      eb
        .selectFrom('recovery_codes')
        .select((inner) => inner.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .as('codes'),
    ])
    .executeTakeFirstOrThrow();
  return { totp: Boolean(Number(row.totp)), passkeys: Number(row.passkeys ?? 0), recoveryCodesLeft: Number(row.codes ?? 0) };
}

// TOTP

export async function totpOf(db: Db, userId: string) {
  return db.selectFrom('two_factor_totp').select(['secret', 'confirmed_at', 'last_step']).where('user_id', '=', userId).executeTakeFirst();
}

/** Keeps `secret` as the account's pending secret (replacing a pending one); false when a confirmed one exists. */
export async function startTotp(db: Db, userId: string, secret: string, now: string): Promise<boolean> {
  const row = await db
    .insertInto('two_factor_totp')
    .values({ user_id: userId, secret, confirmed_at: null, last_step: null, created_at: now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ secret, created_at: now, last_step: null }).where('two_factor_totp.confirmed_at', 'is', null))
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Confirms the pending secret `secret` with the step of the code that proved it; false when it is no longer pending. */
export async function confirmTotp(trx: Db, userId: string, secret: string, step: number, now: string): Promise<boolean> {
  const result = await trx
    .updateTable('two_factor_totp')
    .set({ confirmed_at: now, last_step: step })
    .where('user_id', '=', userId)
    .where('secret', '=', secret)
    .where('confirmed_at', 'is', null)
    .executeTakeFirst();
  return rowsChanged(result) === 1;
}

/** Takes time step `step` of the confirmed secret: true once, false for it or any earlier step after (replay). */
export async function takeTotpStep(db: Db, userId: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable('two_factor_totp')
    .set({ last_step: step })
    .where('user_id', '=', userId)
    .where('confirmed_at', 'is not', null)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .executeTakeFirst();
  return rowsChanged(result) === 1;
}

/** Removes the secret, pending or confirmed; whether a confirmed one was removed. */
export async function deleteTotp(trx: Db, userId: string): Promise<boolean> {
  const removed = await trx.deleteFrom('two_factor_totp').where('user_id', '=', userId).returning('confirmed_at').executeTakeFirst();
  return removed !== undefined && removed.confirmed_at !== null;
}

// Recovery codes

export async function replaceRecoveryCodes(trx: Db, userId: string, digests: string[], now: string): Promise<void> {
  await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await trx
    .insertInto('recovery_codes')
    .values(digests.map((codeHash) => ({ id: randomUUID(), user_id: userId, code_hash: codeHash, created_at: now, used_at: null })))
    .execute();
}

/** Uses the unused code with this digest: true once. */
export async function useRecoveryCode(db: Db, userId: string, codeHash: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return rowsChanged(result) === 1;
}

/** Removes every recovery code of the account; how many were still unused. */
export async function deleteRecoveryCodes(trx: Db, userId: string): Promise<number> {
  const removed = await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).returning('used_at').execute();
  return removed.filter((row) => row.used_at === null).length;
}

// Passkeys

export type PasskeyRow = Pick<Selectable<PasskeysTable>, 'id' | 'user_id' | 'credential_id' | 'public_key' | 'transports' | 'name' | 'created_at' | 'last_used_at'> & { counter: number };

const PASSKEY_COLUMNS = ['id', 'user_id', 'credential_id', 'public_key', 'counter', 'transports', 'name', 'created_at', 'last_used_at'] as const;

export async function passkeysOf(db: Db, userId: string): Promise<PasskeyRow[]> {
  const rows = await db.selectFrom('passkeys').select(PASSKEY_COLUMNS).where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
  return rows.map((row) => ({ ...row, counter: Number(row.counter) }));
}

export async function passkeyByCredential(db: Db, credentialId: string): Promise<PasskeyRow | undefined> {
  const row = await db.selectFrom('passkeys').select(PASSKEY_COLUMNS).where('credential_id', '=', credentialId).executeTakeFirst();
  return row && { ...row, counter: Number(row.counter) };
}

/** Adds a passkey; false when its credential is registered already (to anyone: a credential is one account's). */
export async function insertPasskey(
  trx: Db,
  passkey: { id: string; userId: string; credentialId: string; publicKey: string; counter: number; transports: string[] | null; name: string; deviceType: string; backedUp: boolean; now: string },
): Promise<boolean> {
  const row = await trx
    .insertInto('passkeys')
    .values({
      id: passkey.id,
      user_id: passkey.userId,
      credential_id: passkey.credentialId,
      public_key: passkey.publicKey,
      counter: passkey.counter,
      transports: passkey.transports ? JSON.stringify(passkey.transports) : null,
      name: passkey.name,
      device_type: passkey.deviceType,
      backed_up: passkey.backedUp ? 1 : 0,
      created_at: passkey.now,
      last_used_at: null,
    })
    .onConflict((oc) => oc.column('credential_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function renamePasskey(db: Db, userId: string, id: string, name: string): Promise<PasskeyRow | undefined> {
  const row = await db.updateTable('passkeys').set({ name }).where('id', '=', id).where('user_id', '=', userId).returning(PASSKEY_COLUMNS).executeTakeFirst();
  return row && { ...row, counter: Number(row.counter) };
}

/** Removes one of the account's passkeys; its name, or undefined when it is not theirs. */
export async function deletePasskey(trx: Db, userId: string, id: string): Promise<string | undefined> {
  const row = await trx.deleteFrom('passkeys').where('id', '=', id).where('user_id', '=', userId).returning('name').executeTakeFirst();
  return row?.name;
}

export async function deletePasskeys(trx: Db, userId: string): Promise<number> {
  return (await trx.deleteFrom('passkeys').where('user_id', '=', userId).returning('id').execute()).length;
}

/**
 * Records a use: the new counter, when the stored one is still the one the answer was checked against
 * (two answers checked against the same counter: one wins), and when it was used.
 */
export async function recordPasskeyUse(db: Db, id: string, checkedCounter: number, newCounter: number, backedUp: boolean, now: string): Promise<boolean> {
  const result = await db
    .updateTable('passkeys')
    .set({ counter: newCounter, backed_up: backedUp ? 1 : 0, last_used_at: now })
    .where('id', '=', id)
    .where('counter', '=', checkedCounter)
    .executeTakeFirst();
  return rowsChanged(result) === 1;
}

// Sign-in challenges

export type ChallengeRow = Pick<Selectable<SignInChallengesTable>, 'id' | 'user_id' | 'method' | 'remember' | 'webauthn_challenge' | 'created_at' | 'expires_at' | 'used_at'> & {
  tries: number;
};

export async function insertChallenge(db: Db, challenge: Omit<Insertable<SignInChallengesTable>, 'tries' | 'used_at' | 'webauthn_challenge'>): Promise<void> {
  await db.insertInto('sign_in_challenges').values({ ...challenge, tries: 0, used_at: null, webauthn_challenge: null }).execute();
}

export async function challengeOf(db: Db, id: string): Promise<ChallengeRow | undefined> {
  const row = await db
    .selectFrom('sign_in_challenges')
    .select(['id', 'user_id', 'method', 'remember', 'tries', 'webauthn_challenge', 'created_at', 'expires_at', 'used_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row && { ...row, tries: Number(row.tries) };
}

/** Keeps the WebAuthn challenge a passkey answer must sign, while the challenge is open. */
export async function setChallengeWebauthn(db: Db, id: string, webauthnChallenge: string, now: string, maxTries: number): Promise<boolean> {
  const result = await db
    .updateTable('sign_in_challenges')
    .set({ webauthn_challenge: webauthnChallenge })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where('tries', '<', maxTries)
    .executeTakeFirst();
  return rowsChanged(result) === 1;
}

/** Marks the challenge used, if it still is open (unused, unexpired, tries left): true for one caller only. */
export async function claimChallenge(trx: Db, id: string, now: string, maxTries: number): Promise<boolean> {
  const result = await trx
    .updateTable('sign_in_challenges')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where('tries', '<', maxTries)
    .executeTakeFirst();
  return rowsChanged(result) === 1;
}

export async function countWrongAnswer(db: Db, id: string): Promise<void> {
  await db
    .updateTable('sign_in_challenges')
    .set((eb) => ({ tries: eb('tries', '+', 1) }))
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .execute();
}

/** Ends every open challenge of the account (its factors were reset: none of them can be answered). */
export async function deleteChallenges(trx: Db, userId: string): Promise<void> {
  await trx.deleteFrom('sign_in_challenges').where('user_id', '=', userId).execute();
}

// WebAuthn ceremonies

/** Keeps a ceremony; a registration replaces the account's earlier ones (only the newest options are answerable). */
export async function insertCeremony(db: Db, ceremony: Omit<Insertable<WebauthnCeremoniesTable>, 'used_at'>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const owner = ceremony.user_id;
    if (ceremony.purpose === 'registration' && owner) {
      await trx.deleteFrom('webauthn_ceremonies').where('user_id', '=', owner).where('purpose', '=', 'registration').execute();
    }
    await trx
      .insertInto('webauthn_ceremonies')
      .values({ ...ceremony, used_at: null })
      .execute();
  });
}

/** Uses the open ceremony `id` of this purpose (and account, for a registration): its challenge, for one caller only. */
export async function claimCeremony(db: Db, id: string, purpose: WebauthnCeremoniesTable['purpose'], userId: string | null, now: string): Promise<string | undefined> {
  let query = db
    .updateTable('webauthn_ceremonies')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now);
  query = userId === null ? query.where('user_id', 'is', null) : query.where('user_id', '=', userId);
  const row = await query.returning('challenge').executeTakeFirst();
  return row?.challenge;
}

/** Housekeeping: challenges and ceremonies that ended before `before`. */
export async function pruneEnded(db: Db, before: string): Promise<void> {
  await db.deleteFrom('sign_in_challenges').where('expires_at', '<', before).execute();
  await db.deleteFrom('webauthn_ceremonies').where('expires_at', '<', before).execute();
}

/** The account's second factor as the data export gives it: no secrets, digests or public keys (issue 17). */
export async function twoFactorRecordsOf(db: Db, userId: string) {
  const [totp, recoveryCodes, passkeys] = await Promise.all([
    db.selectFrom('two_factor_totp').select(['confirmed_at', 'created_at']).where('user_id', '=', userId).executeTakeFirst(),
    db.selectFrom('recovery_codes').select(['created_at', 'used_at']).where('user_id', '=', userId).orderBy('created_at').execute(),
    db.selectFrom('passkeys').select(['id', 'name', 'device_type', 'backed_up', 'transports', 'created_at', 'last_used_at']).where('user_id', '=', userId).orderBy('created_at').execute(),
  ]);
  return { totp, recoveryCodes, passkeys };
}
