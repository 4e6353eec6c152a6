import { z } from 'zod';

/** Development-only endpoints (never registered in production). */
export const outboxQuerySchema = z.object({ to: z.string().min(1).max(254) });
export const outboxMailSchema = z.object({
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  createdAt: z.string(),
});
export const outboxResponseSchema = z.array(outboxMailSchema);

export const advanceClockRequestSchema = z.object({ advanceSeconds: z.number().int().min(0).max(10 * 366 * 86_400) });
export const clockResponseSchema = z.object({ now: z.string() });

/**
 * `POST /dev/chargeback` (admin; issue 46 item 9): the offline Paddle stand-in raises a chargeback on a
 * completed payment (`reverse`: the bank gives it back), as a bank would, with Paddle's webhook to follow.
 */
export const chargebackRequestSchema = z.object({ transactionId: z.string().regex(/^txn_[a-z0-9]{1,40}$/), reverse: z.boolean().optional() }).strict();
export const chargebackResponseSchema = z.object({ adjustmentId: z.string() });
