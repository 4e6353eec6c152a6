import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { insertLicence, isPurchaseGranted, ownedFullLicences } from './repo.js';

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
 * often Paddle repeats the event (a unique index on (transaction, product)), and never a second live
 * licence of a release the user holds (a partial unique index on (user, release)). Says which lines
 * were granted now and which releases were held already (a duplicate purchase, to be refunded).
 */
export async function grantPurchasedLicences(
  db: Kysely<Database>,
  input: { userId: string | null; transactionId: string; grantedAt: string; lines: PurchasedLine[] },
): Promise<{ granted: { id: string; productId: string }[]; alreadyOwned: string[] }> {
  const granted: { id: string; productId: string }[] = [];
  const alreadyOwned: string[] = [];
  for (const line of input.lines) {
    if (!line.release) continue;
    const id = randomUUID();
    const inserted = await insertLicence(db, {
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
    });
    if (inserted) {
      granted.push({ id, productId: line.productId });
      continue;
    }
    if (!(await isPurchaseGranted(db, input.transactionId, line.productId))) alreadyOwned.push(line.release);
  }
  return { granted, alreadyOwned };
}

/** What the user owns, for hiding products they need not buy again: products bought and releases held. */
export async function ownedPerpetual(db: Kysely<Database>, userId: string): Promise<{ productIds: Set<string>; releases: Set<string> }> {
  const rows = await ownedFullLicences(db, userId);
  return {
    productIds: new Set(rows.flatMap((row) => (row.product_id ? [row.product_id] : []))),
    releases: new Set(rows.flatMap((row) => (row.release ? [row.release] : []))),
  };
}
