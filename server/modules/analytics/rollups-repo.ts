import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { PERIOD_FIGURES, ROLLUP_SUMS, type Figures } from './figures.js';

/**
 * The figures ingestion keeps (./ingest.ts): user-periods (one user's figures in one day, week or month
 * and channel), the rollup rows summing them, each user's lifetime, and the cohort rows counting users.
 * Each function is one statement on at most a chunk of rows (ingest.ts chunks them); ingest.ts writes
 * rows in key order, so two writers never deadlock. Tuned for a million users and ten million sessions
 * (bench/README.md, "Usage analytics at ten million sessions"): change a statement with the bench.
 */

type Trx = Transaction<Database>;

/** A rollup row's key: the user-periods sharing grain, channel, period, suspicious or not, and played minutes. */
export interface RollupKey {
  grain: string;
  channel: string;
  period: string;
  suspicious: number;
  played_minutes: number;
}

export type RollupSums = Record<(typeof ROLLUP_SUMS)[number], number>;

export interface LifetimeRow {
  user_id: string;
  signup_day: string;
  last_active_day: string | null;
  played_seconds: number;
  suspicious_sessions: number;
}

/** A cohort row's key and its count of users (a signed change when added). */
export interface CohortRow {
  grain: string;
  cohort: string;
  suspicious: number;
  played_minutes: number;
  retained: number;
  users: number;
}

/** The stored user-periods of these users in these periods (any grain and channel). */
export async function userPeriodsOf(trx: Trx, userIds: string[], periods: string[]) {
  return trx.selectFrom('analytics_user_periods').selectAll().where('user_id', 'in', userIds).where('period', 'in', periods).execute();
}

/** Writes the user-periods' figures as given (inserted, or replacing the stored ones). */
export async function upsertUserPeriods(trx: Trx, rows: { userId: string; grain: string; period: string; channel: string; figures: Figures }[]): Promise<void> {
  await trx
    .insertInto('analytics_user_periods')
    .values(rows.map((s) => ({ user_id: s.userId, grain: s.grain, period: s.period, channel: s.channel, ...s.figures })))
    .onConflict((oc) =>
      oc.columns(['user_id', 'grain', 'period', 'channel']).doUpdateSet((eb) => Object.fromEntries(PERIOD_FIGURES.map((name) => [name, eb.ref(`excluded.${name}`)]))),
    )
    .execute();
}

/** Adds signed sums to their rollup rows, creating the rows that do not exist. */
export async function addToRollups(trx: Trx, rows: { key: RollupKey; adds: RollupSums }[]): Promise<void> {
  await trx
    .insertInto('analytics_rollups')
    .values(rows.map((row) => ({ ...row.key, ...row.adds })))
    .onConflict((oc) =>
      oc
        .columns(['grain', 'channel', 'period', 'suspicious', 'played_minutes'])
        .doUpdateSet((eb) => Object.fromEntries(ROLLUP_SUMS.map((name) => [name, eb(eb.ref(`analytics_rollups.${name}`), '+', eb.ref(`excluded.${name}`))]))),
    )
    .execute();
}

/** Deletes those of the rollup rows that no user-period is in any more (by key: a scan would cost more than the report). */
export async function deleteEmptiedRollups(trx: Trx, keys: RollupKey[]): Promise<void> {
  await trx
    .deleteFrom('analytics_rollups')
    .where('user_periods', '=', 0)
    .where((eb) =>
      eb.or(
        keys.map((key) =>
          eb.and([
            eb('grain', '=', key.grain),
            eb('channel', '=', key.channel),
            eb('period', '=', key.period),
            eb('suspicious', '=', key.suspicious),
            eb('played_minutes', '=', key.played_minutes),
          ]),
        ),
      ),
    )
    .execute();
}

/** The stored lifetimes of these users. */
export async function lifetimesOf(trx: Trx, userIds: string[]) {
  return trx.selectFrom('analytics_user_lifetimes').selectAll().where('user_id', 'in', userIds).execute();
}

/** Writes the lifetimes; a stored one keeps its sign-up day. */
export async function upsertLifetimes(trx: Trx, rows: LifetimeRow[]): Promise<void> {
  await trx
    .insertInto('analytics_user_lifetimes')
    .values(rows)
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet((eb) => ({
        last_active_day: eb.ref('excluded.last_active_day'),
        played_seconds: eb.ref('excluded.played_seconds'),
        suspicious_sessions: eb.ref('excluded.suspicious_sessions'),
      })),
    )
    .execute();
}

/** Adds signed counts of users to their cohort rows, creating the rows that do not exist. */
export async function addToCohorts(trx: Trx, rows: CohortRow[]): Promise<void> {
  await trx
    .insertInto('analytics_cohorts')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['grain', 'cohort', 'suspicious', 'played_minutes', 'retained']).doUpdateSet((eb) => ({ users: eb(eb.ref('analytics_cohorts.users'), '+', eb.ref('excluded.users')) })),
    )
    .execute();
}

/** Deletes those of the cohort rows that count no user any more (by key: a scan of the table would cost more than the whole report). */
export async function deleteEmptiedCohorts(trx: Trx, rows: CohortRow[]): Promise<void> {
  await trx
    .deleteFrom('analytics_cohorts')
    .where('users', '=', 0)
    .where((eb) =>
      eb.or(
        rows.map((row) =>
          eb.and([
            eb('grain', '=', row.grain),
            eb('cohort', '=', row.cohort),
            eb('suspicious', '=', row.suspicious),
            eb('played_minutes', '=', row.played_minutes),
            eb('retained', '=', row.retained),
          ]),
        ),
      ),
    )
    .execute();
}
