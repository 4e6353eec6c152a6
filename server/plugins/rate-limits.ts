import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** Requests per minute one client address may make to each public account endpoint. */
    perAddressLimit: number;
  }
}

/** Makes the per-address limit of this app `perMinute` (config `RATE_LIMIT_PER_ADDRESS`). */
export function registerPerAddressLimit(app: FastifyInstance, perMinute: number): void {
  app.decorate('perAddressLimit', perMinute);
}

/**
 * Per-client-address limit for the public account endpoints (sign-in, registration, verification,
 * password reset), on top of the per-account throttles in server/modules/auth/throttle.ts.
 */
export const PER_ADDRESS_LIMIT = {
  rateLimit: { max: (request: FastifyRequest) => request.server.perAddressLimit, timeWindow: '1 minute' },
} as const;
