import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { updatesUntil } from './licences.js';

/**
 * Licences a redemption grants: a coupon's full licence of a release, and the Lite licence of a claimed
 * Shapelab Lite key. The coupons and lite-keys modules call these in the transaction of the redemption.
 */

/**
 * A full licence of `release` from the coupon `code`, with the free updates of spec section 9. Not given
 * when the user holds a live licence of that release already (a partial unique index on user and
 * release): answers whether it was granted.
 */
export async function grantCouponLicence(trx: Transaction<Database>, input: { userId: string; release: string; code: string; grantedAt: string }): Promise<boolean> {
  const granted = await trx
    .insertInto('licences')
    .values({
      id: randomUUID(),
      user_id: input.userId,
      source: 'coupon',
      edition: 'full',
      channel: 'coupon',
      release: input.release,
      updates_until: updatesUntil(input.release),
      transaction_id: null,
      product_id: null,
      price_id: null,
      source_ref: input.code,
      granted_at: input.grantedAt,
    })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(granted.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** A Lite licence from the Lite key `key`, of the key's store channel. */
export async function grantLiteLicence(trx: Transaction<Database>, input: { userId: string; channel: string; key: string; grantedAt: string }): Promise<void> {
  await trx
    .insertInto('licences')
    .values({
      id: randomUUID(),
      user_id: input.userId,
      source: 'lite-key',
      edition: 'lite',
      channel: input.channel,
      release: null,
      updates_until: null,
      transaction_id: null,
      product_id: null,
      price_id: null,
      source_ref: input.key,
      granted_at: input.grantedAt,
    })
    .execute();
}
