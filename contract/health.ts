import { z } from 'zod';

export const healthSchema = z.object({ status: z.literal('ok') });
export type Health = z.infer<typeof healthSchema>;

/** `GET /api/health/ready`: 200 when this instance should get traffic. */
export const readySchema = z.object({ status: z.literal('ready') });
/** 503: why not (the instance is draining, its database does not answer, or lacks a migration). */
export const notReadySchema = z.object({
  status: z.literal('unavailable'),
  reasons: z.array(z.enum(['shutting-down', 'database', 'migrations', 'worker', 'events'])),
});
