import type { RateLimitPluginOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Throttle } from '../modules/auth/index.js';

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

type StoreConstructor = NonNullable<RateLimitPluginOptions['store']>;
type Store = InstanceType<StoreConstructor>;
type RouteParams = Parameters<Store['child']>[0] & { groupId?: string; routeInfo?: { method?: string | string[]; url?: string } };

/**
 * @fastify/rate-limit's counts kept in the shared database (the `throttles` table, beside the per-account
 * throttles) instead of each process's memory, so N instances behind a load balancer allow the limit
 * once, not N times. One counter per route (or limiter) and client address; the window is fixed and
 * starts with the first request, as the memory store's.
 */
export function databaseRateStore(throttle: Throttle): StoreConstructor {
  class DatabaseRateStore {
    constructor(
      _options: unknown,
      private readonly scope = 'global',
    ) {}

    incr(address: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      throttle.increment(`rate:${this.scope}:${address}`, timeWindow).then(
        ({ count, windowEndsAt }) => callback(null, { current: count, ttl: Math.max(0, Date.parse(windowEndsAt) - throttle.now().getTime()) }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(params: RouteParams): Store {
      const route = params.routeInfo?.url ? `${String(params.routeInfo.method)} ${params.routeInfo.url}` : 'limiter';
      return new DatabaseRateStore(params, params.groupId ?? route);
    }
  }
  return DatabaseRateStore as unknown as StoreConstructor;
}
