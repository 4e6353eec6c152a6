import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.js';

/**
 * PostgreSQL's answers for a transaction it gave up on to let another one through: a deadlock (40P01) or a
 * serialization failure (40001). Nothing of the transaction was written, and PostgreSQL's documented
 * remedy is to run it again. SQLite has one writer at a time and never answers these.
 */
const RETRYABLE_CODES = new Set(['40P01', '40001']);
const ATTEMPTS = 3;

function isRetryable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RETRYABLE_CODES.has(code);
}

/**
 * Runs `work` in a transaction, again (up to three times in all) when PostgreSQL broke a deadlock or a
 * serialization conflict by failing it. `work` must only write through `trx`, so a failed attempt left
 * nothing behind.
 */
export async function transactionRetried<T>(db: Kysely<Database>, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      if (attempt >= ATTEMPTS || !isRetryable(error)) throw error;
    }
  }
}
