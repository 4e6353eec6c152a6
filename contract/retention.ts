import { z } from 'zod';
import { CANCELLATION_ROWS, type CancellationRow } from './subscription-values.js';

export { CANCELLATION_ROWS, type CancellationRow } from './subscription-values.js';

/**
 * `GET /billing/retention?from&to` (admin; issue 46 items 5 and 8): per calendar month (UTC) of the range,
 * the failed renewals that ended recovered (paid after a failure) or lost (Paddle gave up, or the
 * subscription ended while one was open), and the cancellations by the reason customers gave ('none' when
 * they gave none, as an admin's cancellation).
 */
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'yyyy-MM-dd');

export const retentionQuerySchema = z.object({
  /** First day of the range (UTC, inclusive). */
  from: day,
  /** Last day of the range (UTC, inclusive). */
  to: day,
});
export type RetentionQuery = z.infer<typeof retentionQuerySchema>;

export const retentionResponseSchema = z.object({
  months: z.array(
    z.object({
      /** yyyy-MM */
      month: z.string(),
      renewals: z.object({ recovered: z.number().int(), lost: z.number().int() }),
      cancellations: z.object(Object.fromEntries(CANCELLATION_ROWS.map((reason) => [reason, z.number().int()])) as Record<CancellationRow, z.ZodNumber>),
    }),
  ),
});
export type Retention = z.infer<typeof retentionResponseSchema>;
