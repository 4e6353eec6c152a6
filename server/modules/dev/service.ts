import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { normalizeEmail } from '../../../contract/email.js';
import { AppError } from '../../errors.js';
import { outboxMailsTo } from '../mail/index.js';

/** The development mailbox: mails to one address, newest first (the mail module's outbox). */
export async function listOutbox(db: Kysely<Database>, to: string) {
  return outboxMailsTo(db, normalizeEmail(to));
}

/**
 * Asks the offline Paddle stand-in to raise a chargeback on a payment (its control, not a Paddle API path);
 * the stand-in then sends Paddle's `adjustment.created` webhook. A payment it cannot charge back (unknown,
 * not completed, charged back already) is CHARGEBACK_NOT_POSSIBLE.
 */
export async function raiseChargeback(standin: { baseUrl: string; apiKey: string }, transactionId: string, reverse: boolean): Promise<{ adjustmentId: string }> {
  const response = await fetch(`${standin.baseUrl}/sandbox/transactions/${transactionId}/${reverse ? 'chargeback-reverse' : 'chargeback'}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${standin.apiKey}` },
  });
  if (!response.ok) throw new AppError('CHARGEBACK_NOT_POSSIBLE', 409);
  const { data } = (await response.json()) as { data: { id: string } };
  return { adjustmentId: data.id };
}
