import { EXPORT_FORMATS } from '../../../contract/licensing.js';

/**
 * The figures every user-period (and every rollup row, as their sum) carries: one column each in
 * `analytics_user_periods` and `analytics_rollups` (migration 0011). A new figure needs a migration that
 * adds its column to both tables.
 */
export const PERIOD_FIGURES = [
  'sessions',
  'session_seconds',
  'played_seconds',
  'suspicious_sessions',
  'launches',
  'activations',
  'sales',
  'is_new',
  ...EXPORT_FORMATS.map((format) => `exports_${format}` as const),
] as const;

export type Figure = (typeof PERIOD_FIGURES)[number];
export type Figures = Record<Figure, number>;

/** What a rollup row sums besides the figures: its user-periods, and those with a session (active users). */
export const ROLLUP_SUMS = [...PERIOD_FIGURES, 'user_periods', 'active_users'] as const;
