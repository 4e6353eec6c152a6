import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { PerpetualLicence } from '../../../contract/billing.js';
import { isAdmin } from '../../../contract/roles.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { UserWithRoles } from '../users/repo.js';

/**
 * Spec section 9: a perpetual licence includes free updates until the end of the year after its
 * release (the 2024 release: until the end of 2025).
 */
export function updatesUntil(release: string): string | null {
  const year = Number(release);
  if (!Number.isInteger(year) || year < 2000) return null;
  return new Date(Date.UTC(year + 1, 11, 31, 23, 59, 59, 999)).toISOString();
}

/** A line of a completed one-off purchase: the product bought, and its release when it is a perpetual one. */
export interface PurchasedLine {
  priceId: string;
  productId: string;
  release: string | null;
}

/**
 * Grants the licences a completed purchase bought: one per perpetual product per transaction, however
 * often Paddle repeats the event (a unique index on (transaction, product)). Returns the new ones' ids.
 */
export async function grantPurchasedLicences(
  db: Kysely<Database>,
  input: { userId: string | null; transactionId: string; grantedAt: string; lines: PurchasedLine[] },
): Promise<string[]> {
  const granted: string[] = [];
  for (const line of input.lines) {
    if (!line.release) continue;
    const id = randomUUID();
    const result = await db
      .insertInto('licences')
      .values({
        id,
        user_id: input.userId,
        source: 'purchase',
        edition: 'full',
        channel: 'paddle',
        release: line.release,
        updates_until: updatesUntil(line.release),
        transaction_id: input.transactionId,
        product_id: line.productId,
        price_id: line.priceId,
        source_ref: null,
        granted_at: input.grantedAt,
      })
      .onConflict((oc) => oc.columns(['transaction_id', 'product_id']).doNothing())
      .executeTakeFirst();
    if (Number(result.numInsertedOrUpdatedRows ?? 0) > 0) granted.push(id);
  }
  return granted;
}

/**
 * `GET /perpetual/license?UserId=&include=` (spec sections 3 and 7): the user's perpetual licences,
 * bought or redeemed, each with the transaction items that bought it (each price with its product_id),
 * its release and the end of its free updates. Only the owner or an admin may read them.
 */
export async function perpetualLicences(db: Kysely<Database>, requester: UserWithRoles, userId: string | undefined): Promise<PerpetualLicence[]> {
  const owner = userId ?? requester.id;
  if (owner !== requester.id && !isAdmin(requester.roles)) throw new AppError('FORBIDDEN', 403);
  const rows = await db
    .selectFrom('licences')
    .select(['id', 'source', 'release', 'updates_until', 'transaction_id', 'product_id', 'price_id', 'granted_at'])
    .where('user_id', '=', owner)
    .where('edition', '=', 'full')
    .orderBy('granted_at', 'desc')
    .execute();
  return rows.map((row) => ({
    id: row.transaction_id ?? row.id,
    licenceId: row.id,
    source: row.source,
    purchasedAt: row.granted_at,
    release: row.release,
    updatesUntil: row.updates_until,
    items: row.price_id && row.product_id ? [{ price: { id: row.price_id, product_id: row.product_id }, quantity: 1 }] : [],
  }));
}

/** What the user owns, for hiding products they need not buy again: products bought and releases held. */
export async function ownedPerpetual(db: Kysely<Database>, userId: string): Promise<{ productIds: Set<string>; releases: Set<string> }> {
  const rows = await db.selectFrom('licences').select(['product_id', 'release']).where('user_id', '=', userId).where('edition', '=', 'full').execute();
  return {
    productIds: new Set(rows.flatMap((row) => (row.product_id ? [row.product_id] : []))),
    releases: new Set(rows.flatMap((row) => (row.release ? [row.release] : []))),
  };
}
