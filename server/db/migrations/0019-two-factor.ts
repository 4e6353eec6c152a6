import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../index.js';
import { timestampType } from './types.js';

/**
 * Issue 44: a second factor (an authenticator app's TOTP with recovery codes, and passkeys) and sign-in
 * in two steps for the accounts that have one.
 *
 * - `two_factor_totp`: one secret per user, pending until a code from it confirms it (`confirmed_at`);
 *   `last_step` is the newest time step accepted, so a code is never accepted twice (replay).
 * - `recovery_codes`: SHA-256 digests of the ten codes shown once; each is used once (`used_at`).
 * - `passkeys`: WebAuthn credentials; a credential id is one account's only (unique across users).
 * - `sign_in_challenges`: the first step's answer for an account with a second factor, kept by the digest
 *   of its opaque token with what the first step was (method, remember-me); 5 minutes, 5 wrong answers,
 *   used once. `webauthn_challenge` is set when the answer is to be a passkey.
 * - `webauthn_ceremonies`: the challenges of passkey registrations (per user) and of sign-ins with a
 *   passkey alone (no user yet), 5 minutes, used once.
 * - `users.two_factor_enabled`: whether the account has a confirmed TOTP or a passkey, kept in the
 *   transaction of every change that adds or removes one, so the per-request guard reads it with the user
 *   in its one query (staff without a second factor are held to enrolment).
 * - `sessions.second_factor`: which second factor a sign-in used ('totp', 'recovery', 'passkey'), or null.
 */
export function twoFactor(dialect: Dialect): Migration {
  const ts = timestampType(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('two_factor_totp')
        .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        /** Base32, as the authenticator app was given it. */
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('confirmed_at', ts)
        .addColumn('last_step', 'integer')
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('recovery_codes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('used_at', ts)
        .execute();
      await db.schema.createIndex('recovery_codes_user_code_idx').on('recovery_codes').columns(['user_id', 'code_hash']).unique().execute();

      await db.schema
        .createTable('passkeys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        /** Base64url, as WebAuthn names the credential. */
        .addColumn('credential_id', 'text', (c) => c.notNull().unique())
        /** Base64url of the COSE public key. */
        .addColumn('public_key', 'text', (c) => c.notNull())
        /** The authenticator's signature counter (unsigned 32 bits): bigint, as PostgreSQL's integer is signed. */
        .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
        /** JSON array of the transports the browser reported ('internal', 'hybrid', 'usb'...), or null. */
        .addColumn('transports', 'text')
        .addColumn('name', 'text', (c) => c.notNull())
        /** 'singleDevice' or 'multiDevice' (synced), and whether it is backed up, as the authenticator says. */
        .addColumn('device_type', 'text', (c) => c.notNull())
        .addColumn('backed_up', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('last_used_at', ts)
        .execute();
      await db.schema.createIndex('passkeys_user_idx').on('passkeys').columns(['user_id', 'created_at']).execute();

      await db.schema
        .createTable('sign_in_challenges')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        /** 'password' | 'admin' | 'google' | 'facebook': the first step, whose session the second one starts. */
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('remember', 'integer', (c) => c.notNull())
        .addColumn('tries', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('webauthn_challenge', 'text')
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('expires_at', ts, (c) => c.notNull())
        .addColumn('used_at', ts)
        .execute();
      await db.schema.createIndex('sign_in_challenges_expiry_idx').on('sign_in_challenges').column('expires_at').execute();
      await db.schema.createIndex('sign_in_challenges_user_idx').on('sign_in_challenges').column('user_id').execute();

      await db.schema
        .createTable('webauthn_ceremonies')
        .addColumn('id', 'text', (c) => c.primaryKey())
        /** 'registration' | 'sign-in' */
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('challenge', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('expires_at', ts, (c) => c.notNull())
        .addColumn('used_at', ts)
        .execute();
      await db.schema.createIndex('webauthn_ceremonies_expiry_idx').on('webauthn_ceremonies').column('expires_at').execute();
      await db.schema.createIndex('webauthn_ceremonies_user_idx').on('webauthn_ceremonies').column('user_id').execute();

      await db.schema
        .alterTable('users')
        .addColumn('two_factor_enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('sessions').addColumn('second_factor', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('sessions').dropColumn('second_factor').execute();
      await db.schema.alterTable('users').dropColumn('two_factor_enabled').execute();
      await db.schema.dropTable('webauthn_ceremonies').execute();
      await db.schema.dropTable('sign_in_challenges').execute();
      await db.schema.dropTable('passkeys').execute();
      await db.schema.dropTable('recovery_codes').execute();
      await db.schema.dropTable('two_factor_totp').execute();
    },
  };
}
