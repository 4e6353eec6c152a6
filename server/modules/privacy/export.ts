import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import type { UserWithRoles } from '../users/index.js';

/** Everything the portal stores about one user, table by table (issue 17; GDPR article 20). */
export interface DataExport {
  exportedAt: string;
  format: 'shapelab-portal-export/1';
  profile: Record<string, unknown>;
  roles: string[];
  signInMethods: { password: boolean; social: { provider: string; email: string | null; connectedAt: string }[] };
  /** Issue 44: the second factor, without its secrets (the authenticator's secret, recovery code digests, public keys). */
  twoFactor: { totp: { confirmedAt: string | null } | null; recoveryCodes: { createdAt: string; usedAt: string | null }[]; passkeys: Record<string, unknown>[] };
  sessions: Record<string, unknown>[];
  billing: { customerId: string | null };
  subscriptions: Record<string, unknown>[];
  transactions: Record<string, unknown>[];
  refunds: Record<string, unknown>[];
  licences: Record<string, unknown>[];
  accessPasses: Record<string, unknown>[];
  devices: Record<string, unknown>[];
  coupons: Record<string, unknown>[];
  liteKeys: Record<string, unknown>[];
  downloads: Record<string, unknown>[];
  usage: { sessions: Record<string, unknown>[]; exports: Record<string, unknown>[]; launches: Record<string, unknown>[] };
  /** The account's timeline (issue 21): what happened to it and when. */
  activity: Record<string, unknown>[];
}

/**
 * `GET /users/me/export`: one JSON document with every row the portal keeps about the caller. Secrets
 * are left out (password and token digests, device token digests); everything else is as stored.
 */
export async function exportOwnData(deps: { db: Kysely<Database>; clock: Clock }, user: UserWithRoles): Promise<DataExport> {
  const { db } = deps;
  const id = user.id;
  const [social, sessions, customer, subscriptions, transactions, refunds, licences, passes, seats, coupons, liteKeys, downloads, usageSessions, usageExports, launches, activity, totp, recoveryCodes, passkeys] =
    await Promise.all([
      db.selectFrom('social_accounts').select(['provider', 'email', 'created_at']).where('user_id', '=', id).execute(),
      db
        .selectFrom('sessions')
        .select(['id', 'method', 'second_factor', 'created_at', 'last_active_at', 'expires_at', 'ended_at', 'ended_reason', 'browser', 'os', 'address'])
        .where('user_id', '=', id)
        .execute(),
      db.selectFrom('billing_customers').select('provider_customer_id').where('user_id', '=', id).executeTakeFirst(),
      db.selectFrom('subscriptions').selectAll().where('user_id', '=', id).execute(),
      db.selectFrom('transactions').selectAll().where('user_id', '=', id).execute(),
      db.selectFrom('refunds').select(['transaction_id', 'reason', 'status', 'amount', 'currency_code', 'created_at']).where('user_id', '=', id).execute(),
      db.selectFrom('licences').selectAll().where('user_id', '=', id).execute(),
      db.selectFrom('access_passes').selectAll().where('user_id', '=', id).execute(),
      db.selectFrom('seats').select(['id', 'name', 'computer_id', 'activated_at', 'last_login_at', 'channel']).where('user_id', '=', id).execute(),
      db.selectFrom('coupon_redemptions').selectAll().where('user_id', '=', id).execute(),
      db.selectFrom('lite_keys').select(['key', 'channel', 'claimed_at']).where('claimed_by', '=', id).execute(),
      db.selectFrom('downloads').selectAll().where('user_id', '=', id).execute(),
      db.selectFrom('analytics_sessions').selectAll().where('user_id', '=', id).execute(),
      db.selectFrom('analytics_exports').selectAll().where('user_id', '=', id).execute(),
      db.selectFrom('analytics_launches').selectAll().where('user_id', '=', id).execute(),
      db.selectFrom('activity_log').select(['kind', 'actor_id', 'details', 'created_at']).where('user_id', '=', id).orderBy('created_at').orderBy('id').execute(),
      db.selectFrom('two_factor_totp').select(['confirmed_at', 'created_at']).where('user_id', '=', id).executeTakeFirst(),
      db.selectFrom('recovery_codes').select(['created_at', 'used_at']).where('user_id', '=', id).orderBy('created_at').execute(),
      db.selectFrom('passkeys').select(['id', 'name', 'device_type', 'backed_up', 'transports', 'created_at', 'last_used_at']).where('user_id', '=', id).orderBy('created_at').execute(),
    ]);
  const { password_hash: passwordHash, tokens_valid_after: _tokensValidAfter, roles, google_links: _google, facebook_links: _facebook, ...profile } = user;
  return {
    exportedAt: deps.clock.now().toISOString(),
    format: 'shapelab-portal-export/1',
    profile,
    roles,
    signInMethods: {
      password: passwordHash !== null,
      social: social.map((row) => ({ provider: row.provider, email: row.email, connectedAt: row.created_at })),
    },
    twoFactor: {
      totp: totp ? { confirmedAt: totp.confirmed_at } : null,
      recoveryCodes: recoveryCodes.map((row) => ({ createdAt: row.created_at, usedAt: row.used_at })),
      passkeys,
    },
    sessions,
    billing: { customerId: customer?.provider_customer_id ?? null },
    subscriptions,
    transactions: transactions.map((row) => ({ ...row, items: JSON.parse(row.items) as unknown })),
    refunds,
    licences,
    accessPasses: passes,
    devices: seats,
    coupons,
    liteKeys,
    downloads,
    usage: { sessions: usageSessions, exports: usageExports, launches },
    activity: activity.map((row) => ({ ...row, details: JSON.parse(row.details) as unknown })),
  };
}
