import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { activityForExport } from '../activity/index.js';
import { usageRecordsOf } from '../analytics/index.js';
import { sessionRecordsOf } from '../auth/index.js';
import { billingRecordsOf } from '../billing/index.js';
import { couponRecordsOf } from '../coupons/index.js';
import { seatRecordsOf } from '../devices/index.js';
import { licenceRecordsOf } from '../licensing/index.js';
import { liteKeyRecordsOf } from '../lite-keys/index.js';
import { socialAccountsOf } from '../oauth/index.js';
import { downloadsOf } from '../releases/index.js';
import { twoFactorRecordsOf } from '../two-factor/index.js';
import type { UsersRepo, UserWithRoles } from '../users/index.js';

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
 * `GET /users/me/export`: one JSON document with every row the portal keeps about the caller, each asked
 * of the module that keeps it. Secrets are left out (password and token digests, device token digests,
 * the second factor's secrets); everything else is as stored: the account's own row is read now, not
 * taken from the guard, which keeps it for seconds and needs none of the columns writes keep current
 * without announcing it (the last launch, the first download, the admin grid's plan and segment).
 */
export async function exportOwnData(deps: { db: Kysely<Database>; clock: Clock; users: Pick<UsersRepo, 'findById'> }, signedIn: UserWithRoles): Promise<DataExport> {
  const { db } = deps;
  const id = signedIn.id;
  // Each module gives what it keeps about the account; all of it is asked at once.
  const [user = signedIn, social, sessions, billing, licences, coupons, seats, liteKeys, downloads, usage, activity, twoFactor] = await Promise.all([
    deps.users.findById(id),
    socialAccountsOf(db, id),
    sessionRecordsOf(db, id),
    billingRecordsOf(db, id),
    licenceRecordsOf(db, id),
    couponRecordsOf(db, id),
    seatRecordsOf(db, id),
    liteKeyRecordsOf(db, id),
    downloadsOf(db, id),
    usageRecordsOf(db, id),
    activityForExport(db, id),
    twoFactorRecordsOf(db, id),
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
      totp: twoFactor.totp ? { confirmedAt: twoFactor.totp.confirmed_at } : null,
      recoveryCodes: twoFactor.recoveryCodes.map((row) => ({ createdAt: row.created_at, usedAt: row.used_at })),
      passkeys: twoFactor.passkeys,
    },
    sessions,
    billing: { customerId: billing.customerId },
    subscriptions: billing.subscriptions,
    transactions: billing.transactions.map((row) => ({ ...row, items: JSON.parse(row.items) as unknown })),
    refunds: billing.refunds,
    licences,
    accessPasses: coupons.accessPasses,
    devices: seats,
    coupons: coupons.redemptions,
    liteKeys,
    downloads,
    usage: { sessions: usage.sessions, exports: usage.exports, launches: usage.launches },
    activity: activity.map((row) => ({ ...row, details: JSON.parse(row.details) as unknown })),
  };
}
