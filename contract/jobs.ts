import { z } from 'zod';
import { JOB_STATUSES } from './jobs-values.js';

/** The durable job queue as admins see it (issue 19): `GET /api/admin/jobs`. Payloads are not shown (they may hold personal data). */
export { JOB_STATUSES, type JobStatus } from './jobs-values.js';

export const jobsQuerySchema = z.object({
  status: z.enum(JOB_STATUSES).optional(),
  skip: z.coerce.number().int().min(0).optional(),
  take: z.coerce.number().int().min(1).max(100).optional(),
});
export type JobsQuery = z.infer<typeof jobsQuerySchema>;

export const jobSchema = z.object({
  id: z.string(),
  kind: z.string(),
  status: z.enum(JOB_STATUSES),
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  runAt: z.string(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  lastError: z.string().nullable(),
});
export type Job = z.infer<typeof jobSchema>;

export const jobsResponseSchema = z.object({
  data: z.array(jobSchema),
  total: z.number().int(),
  counts: z.object({ pending: z.number().int(), running: z.number().int(), failed: z.number().int() }),
});
export type JobsResponse = z.infer<typeof jobsResponseSchema>;

export const jobIdParamsSchema = z.object({ id: z.string().min(1).max(100) });
