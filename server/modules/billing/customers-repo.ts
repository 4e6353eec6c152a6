import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * The billing_customers table's SQL: which Paddle customer is which user's. One per user and one user per
 * customer (both unique), so two first uses at once end with the same customer.
 */

type Db = Kysely<Database>;

/** The user's Paddle customer id, or undefined before their first checkout or billing page. */
export async function customerIdOf(db: Db, userId: string): Promise<string | undefined> {
  const row = await db.selectFrom('billing_customers').select('provider_customer_id').where('user_id', '=', userId).executeTakeFirst();
  return row?.provider_customer_id;
}

/** The user a Paddle customer belongs to, or null. */
export async function ownerOf(db: Db, customerId: string): Promise<string | null> {
  const owner = await db.selectFrom('billing_customers').select('user_id').where('provider_customer_id', '=', customerId).executeTakeFirst();
  return owner?.user_id ?? null;
}

/**
 * Remembers the user's customer unless they have one already (another request won: its customer stays);
 * the customer that is theirs now.
 */
export async function insertCustomer(db: Db, customer: { userId: string; customerId: string; at: string }): Promise<string> {
  await db
    .insertInto('billing_customers')
    .values({ user_id: customer.userId, provider_customer_id: customer.customerId, created_at: customer.at })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  const row = await db.selectFrom('billing_customers').select('provider_customer_id').where('user_id', '=', customer.userId).executeTakeFirstOrThrow();
  return row.provider_customer_id;
}

/** Locks the customer's row until the caller's transaction ends (PostgreSQL's FOR UPDATE). */
export async function lockCustomerRow(trx: Db, customerId: string): Promise<void> {
  await trx.selectFrom('billing_customers').select('user_id').where('provider_customer_id', '=', customerId).forUpdate().execute();
}
