/**
 * The plain values of contract/analytics.ts (which re-exports them) that the browser needs: zod-free, so the
 * analytics pages do not build the server's schemas (tests/unit/browser-imports.test.ts).
 */

export const GRANULARITIES = ['day', 'week', 'month'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

export const SUSPICIOUS_FILTERS = ['include', 'exclude', 'only'] as const;
export type SuspiciousFilter = (typeof SUSPICIOUS_FILTERS)[number];

/**
 * Where users, activations, sessions and sales came through: the store analytics entries of the admin
 * menu (spec section 2). 'all' is every channel together (the main analytics page); 'direct' is a
 * computer activated from the website's download with no store or plan behind it.
 */
export const STORE_CHANNELS = ['steam', 'subscription', 'metapc-store', 'perpetual-2024', 'viveport', 'android'] as const;
export type StoreChannel = (typeof STORE_CHANNELS)[number];
export const CHANNELS = ['all', ...STORE_CHANNELS, 'direct'] as const;
export type Channel = (typeof CHANNELS)[number];

/** Spec section 9: retention is read at these days after sign-up (366: the year-long view). */
export const RETENTION_DAYS = [7, 14, 21, 28, 366] as const;

/** The longest range one request may ask for (two years and a day, by day). */
export const MAX_RANGE_DAYS = 732;
