import type { Kysely } from 'kysely';
import type { PerpetualLicence } from '../../../contract/billing.js';
import { isAdmin } from '../../../contract/roles.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { UserWithRoles } from '../users/repo.js';
import type { Catalogue } from './catalogue.js';

/**
 * The perpetual licences of `userId`: their completed one-off purchases, as recorded from Paddle's
 * `transaction.completed`, each named by the release its product carries. Only the owner or an admin
 * may read them.
 */
export async function perpetualLicences(
  deps: { db: Kysely<Database>; catalogue: Catalogue },
  requester: UserWithRoles,
  userId: string | undefined,
): Promise<PerpetualLicence[]> {
  const owner = userId ?? requester.id;
  if (owner !== requester.id && !isAdmin(requester.roles)) throw new AppError('FORBIDDEN', 403);
  const rows = await deps.db
    .selectFrom('transactions')
    .select(['id', 'billed_at', 'items'])
    .where('user_id', '=', owner)
    .where('status', '=', 'completed')
    .where('subscription_id', 'is', null)
    .orderBy('billed_at', 'desc')
    .execute();
  if (rows.length === 0) return [];
  const releaseOf = new Map((await deps.catalogue.perpetualProducts()).map((product) => [product.id, product.custom_data.shapelabRelease]));
  return rows.map((row) => {
    const items = JSON.parse(row.items) as { priceId: string; productId: string; quantity: number }[];
    return {
      id: row.id,
      purchasedAt: row.billed_at,
      release: items.map((item) => releaseOf.get(item.productId)).find((release) => release !== undefined) ?? null,
      items: items.map((item) => ({ price: { id: item.priceId, product_id: item.productId }, quantity: item.quantity })),
    };
  });
}
