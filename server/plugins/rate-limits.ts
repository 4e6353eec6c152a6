/**
 * Per-client-address limit for the public account endpoints (sign-in, registration, verification,
 * password reset), on top of the per-account throttles in server/modules/auth/throttle.ts.
 */
export const PER_ADDRESS_LIMIT = { rateLimit: { max: 20, timeWindow: '1 minute' } } as const;
