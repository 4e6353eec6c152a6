import { z } from 'zod';

/** Spec section 9: the event stream sends a heartbeat every 45000 ms. */
export const EVENT_STREAM_HEARTBEAT_MS = 45_000;

/**
 * What `GET /api/events` tells a signed-in user: one of their things changed, so the screen showing it
 * refetches. The stream carries no data beyond the kind and id; the API stays the one source of truth.
 */
export const portalEventSchema = z.object({
  type: z.enum(['subscription', 'transaction', 'licence', 'seat']),
  id: z.string(),
});
export type PortalEvent = z.infer<typeof portalEventSchema>;
