import { sql, type CreateTableBuilder, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../index.js';
import { timestampType } from './types.js';

/**
 * The figure columns of a user-period and a rollup row as this migration creates them. Written out, not
 * imported: a migration stays what it was when it ran; the running code's list is PERIOD_FIGURES in
 * server/modules/analytics/figures.ts, and tests/api/analytics-figures.test.ts holds the two to the tables.
 */
const FIGURE_COLUMNS = [
  'sessions',
  'session_seconds',
  'played_seconds',
  'suspicious_sessions',
  'launches',
  'activations',
  'sales',
  'is_new',
  'exports_obj',
  'exports_stl',
  'exports_fbx',
  'exports_gltf',
  'exports_glb',
  'exports_ply',
  'exports_usdz',
  'exports_3mf',
];

const figures = <T extends string, C extends string>(table: CreateTableBuilder<T, C>, names: readonly string[]) =>
  names.reduce((builder, name) => builder.addColumn(name, 'bigint', (c) => c.notNull().defaultTo(0)), table as CreateTableBuilder<T, string>);

/**
 * Usage analytics rolled up as reports arrive (issue "Usage analytics and cohorts"):
 * - the raw reports gain what the rollups need: the channel they came through, played time, launches;
 * - `analytics_user_periods`: one row per user, grain (day/week/month), period and channel ('all' and
 *   the channel of the computer), with that user's figures in that period: the unit the filters pick;
 * - `analytics_rollups`: the sum of the user-periods sharing (grain, channel, period, suspicious or not,
 *   played minutes), so the dashboard reads a few hundred rows per period, never raw reports;
 * - `analytics_user_lifetimes` and `analytics_cohorts`: the same for sign-up cohorts, over each user's
 *   whole history, with how many retention days (7, 14, 21, 28, 366) the user has reached.
 */
export function analytics(dialect: Dialect): Migration {
  const ts = timestampType(dialect);
  // On SQLite the rollup tables are stored in key order, so a range of periods is one sequential read.
  const clustered = dialect === 'sqlite' ? sql` without rowid` : sql``;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('seats').addColumn('channel', 'text', (c) => c.notNull().defaultTo('direct')).execute();
      await db.schema.alterTable('analytics_sessions').addColumn('channel', 'text', (c) => c.notNull().defaultTo('direct')).execute();
      await db.schema.alterTable('analytics_sessions').addColumn('played_seconds', 'integer').execute();
      await db.schema.alterTable('analytics_exports').addColumn('channel', 'text', (c) => c.notNull().defaultTo('direct')).execute();
      await db.schema
        .createTable('analytics_launches')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('launched_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('analytics_launches_pk', ['user_id', 'id'])
        .execute();
      await db.schema
        .createTable('analytics_activations')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        /** The seat's id: one activation each. */
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('activated_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('analytics_activations_pk', ['user_id', 'id'])
        .execute();
      await db.schema
        .createTable('analytics_sales')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        /** The payment's transaction id, the licence's id or the claimed key: one sale each. */
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('sold_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('analytics_sales_pk', ['user_id', 'id'])
        .execute();
      // A user's first activation through a store channel makes them a new user of that channel.
      await db.schema
        .createTable('analytics_user_channels')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('first_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('analytics_user_channels_pk', ['user_id', 'channel'])
        .execute();

      await figures(
        db.schema
          .createTable('analytics_user_periods')
          .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('grain', 'text', (c) => c.notNull())
          .addColumn('period', 'text', (c) => c.notNull())
          .addColumn('channel', 'text', (c) => c.notNull()),
        FIGURE_COLUMNS,
      )
        .addPrimaryKeyConstraint('analytics_user_periods_pk', ['user_id', 'grain', 'period', 'channel'])
        .modifyEnd(clustered)
        .execute();
      await figures(
        db.schema
          .createTable('analytics_rollups')
          .addColumn('grain', 'text', (c) => c.notNull())
          .addColumn('channel', 'text', (c) => c.notNull())
          .addColumn('period', 'text', (c) => c.notNull())
          .addColumn('suspicious', 'integer', (c) => c.notNull())
          .addColumn('played_minutes', 'bigint', (c) => c.notNull())
          .addColumn('user_periods', 'bigint', (c) => c.notNull().defaultTo(0))
          .addColumn('active_users', 'bigint', (c) => c.notNull().defaultTo(0)),
        FIGURE_COLUMNS,
      )
        .addPrimaryKeyConstraint('analytics_rollups_pk', ['grain', 'channel', 'period', 'suspicious', 'played_minutes'])
        .modifyEnd(clustered)
        .execute();

      await db.schema
        .createTable('analytics_user_lifetimes')
        .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('signup_day', 'text', (c) => c.notNull())
        .addColumn('last_active_day', 'text')
        .addColumn('played_seconds', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('suspicious_sessions', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('analytics_cohorts')
        .addColumn('grain', 'text', (c) => c.notNull())
        .addColumn('cohort', 'text', (c) => c.notNull())
        .addColumn('suspicious', 'integer', (c) => c.notNull())
        .addColumn('played_minutes', 'bigint', (c) => c.notNull())
        /** How many of RETENTION_DAYS the users reached (0-5). */
        .addColumn('retained', 'integer', (c) => c.notNull())
        .addColumn('users', 'bigint', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('analytics_cohorts_pk', ['grain', 'cohort', 'suspicious', 'played_minutes', 'retained'])
        .modifyEnd(clustered)
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['analytics_cohorts', 'analytics_user_lifetimes', 'analytics_rollups', 'analytics_user_periods', 'analytics_user_channels', 'analytics_sales', 'analytics_activations', 'analytics_launches']) {
        await db.schema.dropTable(table).execute();
      }
      await db.schema.alterTable('analytics_exports').dropColumn('channel').execute();
      await db.schema.alterTable('analytics_sessions').dropColumn('played_seconds').execute();
      await db.schema.alterTable('analytics_sessions').dropColumn('channel').execute();
      await db.schema.alterTable('seats').dropColumn('channel').execute();
    },
  };
}
