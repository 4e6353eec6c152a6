import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/schema.js';
import { transactionRetried } from '../../server/db/retry.js';

/** A database whose transactions fail with the given errors, one per attempt, then run the work. */
function failingWith(...errors: unknown[]): { db: Kysely<Database>; attempts: () => number } {
  let attempts = 0;
  const db = {
    transaction: () => ({
      execute: async (work: (trx: unknown) => Promise<unknown>) => {
        attempts += 1;
        const error = errors[attempts - 1];
        if (error) throw error;
        return work({});
      },
    }),
  } as unknown as Kysely<Database>;
  return { db, attempts: () => attempts };
}

const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });
const serialization = Object.assign(new Error('could not serialize access'), { code: '40001' });
const duplicate = Object.assign(new Error('duplicate key'), { code: '23505' });

describe('transactionRetried', () => {
  it('runs a transaction PostgreSQL failed to break a deadlock or a serialization conflict again', async () => {
    const { db, attempts } = failingWith(deadlock, serialization);
    await expect(transactionRetried(db, async () => 'done')).resolves.toBe('done');
    expect(attempts()).toBe(3);
  });

  it('gives up after three attempts with the last error', async () => {
    const { db, attempts } = failingWith(deadlock, deadlock, deadlock, undefined);
    await expect(transactionRetried(db, async () => 'done')).rejects.toBe(deadlock);
    expect(attempts()).toBe(3);
  });

  it('any other error is thrown at once', async () => {
    const { db, attempts } = failingWith(duplicate);
    await expect(transactionRetried(db, async () => 'done')).rejects.toBe(duplicate);
    expect(attempts()).toBe(1);
  });
});
