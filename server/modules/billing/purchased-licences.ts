import type { Kysely } from 'kysely';
import type { PerpetualLicence } from '../../../contract/billing.js';
import type { Release } from '../../../contract/licensing.js';
import { hasPermission } from '../../../contract/permissions.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { perpetualLicenceOf, perpetualLicencesOf, revokeLicence, type PerpetualLicenceRow } from '../licensing/index.js';
import { buildsOfRelease } from '../releases/index.js';
import type { UserWithRoles } from '../users/index.js';
import { type EventBus } from '../events/index.js';
import { releaseRefund, useRefund, usedRefunds } from './refund-once.js';
import { auditPurchase, recordRefund, REFUND_WINDOW_MS, type RefundRunner } from './refunds.js';
import { paymentsById } from './transactions-repo.js';

/*
 * Perpetual licences as purchases: each with the payment that bought it, listed for its owner, and
 * returned within 14 days for a refund. The licences themselves (what a purchase or a coupon grants, the
 * free-updates rule) are the licensing module's; the money and its 14 days are billing's.
 */

/**
 * The devices module's rule, handed in through a port: after a return the user may hold more devices than
 * their new limit, and those beyond it are released in the return's transaction. The seat limit comes from
 * the entitlements, which read billing's subscriptions: billing importing devices would close a cycle, so
 * server/app.ts fills this from devices' `releaseSeatsAboveLimit` (ModuleContext). Returns how many went.
 */
export type ReleaseSeatsAboveLimit = (trx: Kysely<Database>, userId: string, now: Date) => Promise<number>;

/** A perpetual licence with the payment that bought it (none for a coupon's): what listing and returning read. */
type LicenceWithPayment = PerpetualLicenceRow & { grand_total: number | string | null; currency_code: string | null; billed_at: string | null; refund_status: string | null };

/** The licences, each with its payment: the licences are licensing's, the payments billing's. */
async function withPayments(db: Kysely<Database>, licences: PerpetualLicenceRow[]): Promise<LicenceWithPayment[]> {
  const payments = await paymentsById(db, [...new Set(licences.flatMap((licence) => (licence.transaction_id ? [licence.transaction_id] : [])))]);
  return licences.map((licence) => {
    const payment = licence.transaction_id ? payments.get(licence.transaction_id) : undefined;
    return {
      ...licence,
      grand_total: payment?.grand_total ?? null,
      currency_code: payment?.currency_code ?? null,
      billed_at: payment?.billed_at ?? null,
      refund_status: payment?.refund_status ?? null,
    };
  });
}

/**
 * `GET /perpetual/license?UserId=&include=` (spec sections 3 and 7): the user's live perpetual licences,
 * bought or redeemed, each with the transaction items that bought it (each price with its product_id),
 * its release, the end of its free updates, its downloads, its invoice and, within 14 days of a paid
 * purchase not yet refunded, until when it can be returned (never once the release's one refund was used,
 * issue 46 item 1: then `refundUsed`). Only the owner, or staff who may read accounts (`users.read`, issue
 * 47), may read them.
 */
export async function perpetualLicences(db: Kysely<Database>, requester: UserWithRoles, userId: string | undefined, now: Date): Promise<PerpetualLicence[]> {
  const owner = userId ?? requester.id;
  if (owner !== requester.id && !hasPermission(requester.roles, 'users.read')) throw new AppError('FORBIDDEN', 403);
  const [rows, used] = await Promise.all([perpetualLicencesOf(db, owner).then((licences) => withPayments(db, licences)), usedRefunds(db, owner)]);
  return Promise.all(
    rows.map(async (row) => {
      const paid = row.grand_total !== null && row.currency_code ? { amount: Number(row.grand_total), currencyCode: row.currency_code } : null;
      // A purchase of a release whose refund was used is not returnable; a coupon's licence never was.
      const refundUsed = row.source === 'purchase' && row.release !== null && used.has(releaseRefund(row.release));
      const returnable = refundUsed ? null : returnableUntil(row, now);
      return {
        id: row.transaction_id ?? row.id,
        licenceId: row.id,
        source: row.source,
        purchasedAt: row.granted_at,
        release: row.release,
        updatesUntil: row.updates_until,
        items: row.price_id && row.product_id ? [{ price: { id: row.price_id, product_id: row.product_id }, quantity: 1 }] : [],
        productName: row.release && row.source === 'purchase' ? `Shapelab ${row.release}` : null,
        invoiceUrl: row.transaction_id ? `/api/subscription/billing/invoice/${row.transaction_id}` : null,
        returnableUntil: returnable,
        paid,
        refundUsed,
        downloads: row.release ? await downloadsOf(db, row.release, row.updates_until, now) : [],
      };
    }),
  );
}

/** Spec section 9: a paid purchase can be returned within 14 days, once. */
function returnableUntil(
  row: { source: string; transaction_id: string | null; grand_total: number | string | null; billed_at: string | null; granted_at: string; refund_status: string | null },
  now: Date,
): string | null {
  if (row.source !== 'purchase' || !row.transaction_id || row.refund_status !== null || Number(row.grand_total ?? 0) <= 0) return null;
  const until = Date.parse(row.billed_at ?? row.granted_at) + REFUND_WINDOW_MS;
  return until > now.getTime() ? new Date(until).toISOString() : null;
}

/** The newest build of `release` per platform, published by `now` and within the licence's free updates. */
async function downloadsOf(db: Kysely<Database>, release: string, updatesUntil: string | null, now: Date): Promise<Release[]> {
  const limit = updatesUntil && Date.parse(updatesUntil) < now.getTime() ? updatesUntil : now.toISOString();
  const rows = await buildsOfRelease(db, release, limit);
  const newest = new Map<string, Release>();
  for (const row of rows) {
    if (!newest.has(row.platform)) {
      newest.set(row.platform, {
        id: row.id,
        release: row.release,
        version: row.version,
        platform: row.platform as Release['platform'],
        url: row.url,
        publishedAt: new Date(row.published_at).toISOString(),
      });
    }
  }
  return [...newest.values()].sort((a, b) => a.platform.localeCompare(b.platform));
}

/**
 * `POST /perpetual/license/{id}/return` (spec section 9): a licence bought within the last 14 days goes
 * back: in one transaction it is revoked, its payment recorded for a full refund (with the job that asks
 * Paddle), the seats beyond the user's new limit released, and the audit trail written; then the refund is
 * asked of Paddle at once, so the answer can say so (a failure is left to the job's retries). Every
 * instance forgets what it keeps of what the user holds once the revocation has committed.
 */
export async function returnLicence(
  deps: {
    db: Kysely<Database>;
    clock: { now(): Date };
    refunds: Pick<RefundRunner, 'refundTransaction'>;
    releaseSeatsAboveLimit: ReleaseSeatsAboveLimit;
    bus: Pick<EventBus, 'announce'>;
  },
  user: UserWithRoles,
  licenceId: string,
): Promise<{ refund: { amount: number; currencyCode: string } }> {
  const returned = await revokeForRefund(deps, user, licenceId);
  deps.bus.announce({ kind: 'holdings-changed', userId: user.id });
  await deps.refunds.refundTransaction(returned.transactionId);
  return { refund: returned.refund };
}

async function revokeForRefund(
  deps: { db: Kysely<Database>; clock: { now(): Date }; releaseSeatsAboveLimit: ReleaseSeatsAboveLimit },
  user: UserWithRoles,
  licenceId: string,
): Promise<{ refund: { amount: number; currencyCode: string }; transactionId: string }> {
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const licence = await perpetualLicenceOf(trx, user.id, licenceId);
    const [row] = licence ? await withPayments(trx, [licence]) : [];
    // Someone else's licence answers exactly like a missing one.
    if (!row || row.revoked_at !== null) throw new AppError('LICENCE_NOT_FOUND', 404);
    // Of two returns of this licence at once (two tabs, a retry) the second waits on the licence's row and finds
    // it gone. First, so that what the second is told never depends on when the first committed: a refusal
    // below rolls the revocation back.
    if (!(await revokeLicence(trx, row.id, now.toISOString(), 'returned'))) throw new AppError('LICENCE_NOT_FOUND', 404);
    // Issue 46 item 1: the release's refund is the customer's once; a second is named as such, window or not.
    const scope = row.release ? releaseRefund(row.release) : null;
    if (scope && (await usedRefunds(trx, user.id)).has(scope)) throw new AppError('REFUND_ALREADY_USED', 409);
    if (!returnableUntil(row, now) || !row.transaction_id || !row.currency_code) throw new AppError('REFUND_WINDOW_CLOSED', 409);
    // The release's one refund, by the primary key of refund_uses: a second is refused and its transaction
    // (the revocation above included) changes nothing.
    if (scope) await useRefund(trx, { userId: user.id, scope, transactionId: row.transaction_id, actor: 'customer', at: now.toISOString() });
    const amount = Number(row.grand_total);
    const recorded = await recordRefund(trx, {
      transactionId: row.transaction_id,
      userId: user.id,
      reason: 'customer',
      licenceId: row.id,
      release: row.release,
      amount,
      currencyCode: row.currency_code,
      at: now.toISOString(),
    }, { heldForRequest: true });
    // A second return of the same payment (two tabs) finds the refund recorded already.
    if (!recorded) throw new AppError('REFUND_WINDOW_CLOSED', 409);
    const released = await deps.releaseSeatsAboveLimit(trx, user.id, now);
    await auditPurchase(trx, {
      actorId: user.id,
      targetId: user.id,
      action: 'purchase.refunded',
      details: { transactionId: row.transaction_id, licenceId: row.id, release: row.release, amount, currencyCode: row.currency_code, seatsReleased: released },
      at: now.toISOString(),
    });
    return { refund: { amount, currencyCode: row.currency_code }, transactionId: row.transaction_id };
  });
}
