import { once } from 'node:events';
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import SQLite from 'better-sqlite3';
import { RETENTION_DAYS, type AnalyticsPoint, type AnalyticsQuery, type AnalyticsResponse, type CohortQuery, type CohortResponse } from '../contract/analytics.js';
import { EXPORT_FORMATS } from '../contract/licensing.js';
import { compareKpis, comparedPeriods, incompleteFrom, kpiFigures } from '../server/modules/analytics/comparison.js';
import { addDays, periodEnd, periodOf, periodsBetween } from '../server/modules/analytics/periods.js';

/**
 * The benchmark's yardstick (issue "Usage analytics and cohorts"): the dashboard's and the cohorts'
 * questions asked of DuckDB directly over the raw rows, with the definitions of contract/analytics.ts
 * computed on the fly (user-period figures, then the filters, then sums per period; cohorts from each
 * user's whole history). Its answers are shaped like the API's, so the two can be compared number by
 * number, which also checks the rollups at scale.
 */

type ColumnTypes = Record<string, string>;

/** The raw rows DuckDB gets (only the columns the questions read), as exported from the SQLite file. */
const TABLES: Record<string, { source: string; columns: ColumnTypes; orderBy: string }> = {
  users: { source: 'select id, created_at from users', columns: { id: 'UUID', created_at: 'TIMESTAMP' }, orderBy: 'created_at' },
  sessions: {
    source: 'select user_id, channel, started_at, length_seconds, played_seconds, suspicious from analytics_sessions',
    columns: { user_id: 'UUID', channel: 'VARCHAR', started_at: 'TIMESTAMP', length_seconds: 'BIGINT', played_seconds: 'BIGINT', suspicious: 'INTEGER' },
    orderBy: 'started_at',
  },
  exports: {
    source: 'select user_id, channel, format, exported_at from analytics_exports',
    columns: { user_id: 'UUID', channel: 'VARCHAR', format: 'VARCHAR', exported_at: 'TIMESTAMP' },
    orderBy: 'exported_at',
  },
  launches: { source: 'select user_id, channel, launched_at from analytics_launches', columns: { user_id: 'UUID', channel: 'VARCHAR', launched_at: 'TIMESTAMP' }, orderBy: 'launched_at' },
  activations: {
    source: 'select user_id, channel, activated_at from analytics_activations',
    columns: { user_id: 'UUID', channel: 'VARCHAR', activated_at: 'TIMESTAMP' },
    orderBy: 'activated_at',
  },
  sales: { source: 'select user_id, channel, sold_at from analytics_sales', columns: { user_id: 'UUID', channel: 'VARCHAR', sold_at: 'TIMESTAMP' }, orderBy: 'sold_at' },
  user_channels: {
    source: 'select user_id, channel, first_at from analytics_user_channels',
    columns: { user_id: 'UUID', channel: 'VARCHAR', first_at: 'TIMESTAMP' },
    orderBy: 'first_at',
  },
};

/** Writes each table's rows to `<dir>/<table>.csv` (ids, channels, formats and ISO times need no quoting). */
async function exportCsv(sqliteFile: string, dir: string): Promise<Record<string, number>> {
  mkdirSync(dir, { recursive: true });
  const source = new SQLite(sqliteFile, { readonly: true, fileMustExist: true });
  const rows: Record<string, number> = {};
  try {
    for (const [table, { source: query }] of Object.entries(TABLES)) {
      const out = createWriteStream(path.join(dir, `${table}.csv`));
      let buffer = '';
      let count = 0;
      for (const row of source.prepare(query).raw(true).iterate() as Iterable<unknown[]>) {
        buffer += `${row.map((value) => (value === null ? '' : String(value))).join(',')}\n`;
        count++;
        if (buffer.length > 1 << 20) {
          if (!out.write(buffer)) await once(out, 'drain');
          buffer = '';
        }
      }
      out.end(buffer);
      await once(out, 'finish');
      rows[table] = count;
    }
  } finally {
    source.close();
  }
  return rows;
}

export interface DuckLoad {
  exportSeconds: number;
  loadSeconds: number;
  rows: Record<string, number>;
}

const sum = (expression: string) => `coalesce(sum(${expression}), 0)::bigint`;

export class DuckAnalytics {
  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
  ) {}

  /**
   * Loads the raw rows of a SQLite file into an in-memory DuckDB through CSV (`read_csv` with explicit
   * types), each table sorted by its time so DuckDB's zone maps skip what a date range leaves out: the
   * layout a DuckDB user would choose for these questions.
   */
  static async load(sqliteFile: string, csvDir: string): Promise<{ duck: DuckAnalytics; load: DuckLoad }> {
    let started = performance.now();
    const rows = await exportCsv(sqliteFile, csvDir);
    const exportSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    for (const [table, { columns, orderBy }] of Object.entries(TABLES)) {
      const types = Object.entries(columns)
        .map(([name, type]) => `'${name}': '${type}'`)
        .join(', ');
      const file = path.join(csvDir, `${table}.csv`).replaceAll("'", "''");
      await connection.run(`create table ${table} as select * from read_csv('${file}', header = false, delim = ',', quote = '', columns = {${types}}) order by ${orderBy}`);
    }
    const loadSeconds = (performance.now() - started) / 1000;
    rmSync(csvDir, { recursive: true, force: true });
    return { duck: new DuckAnalytics(instance, connection), load: { exportSeconds, loadSeconds, rows } };
  }

  private async rows(query: string): Promise<Record<string, unknown>[]> {
    return (await this.connection.runAndReadAll(query)).getRowObjectsJS();
  }

  /** The played-time and suspicious filters over a relation with `played_seconds` and `suspicious_sessions`. */
  private static filters(query: Pick<AnalyticsQuery, 'suspicious' | 'minPlayed' | 'maxPlayed'>): string {
    const conditions = ['true'];
    if (query.suspicious === 'exclude') conditions.push('suspicious_sessions = 0');
    if (query.suspicious === 'only') conditions.push('suspicious_sessions > 0');
    if (query.minPlayed !== undefined) conditions.push(`played_seconds // 60 >= ${query.minPlayed}`);
    if (query.maxPlayed !== undefined) conditions.push(`played_seconds // 60 <= ${query.maxPlayed}`);
    return conditions.join(' and ');
  }

  /**
   * `GET /api/analytics` over the raw rows: every user-period of the range (and of the periods before it
   * that the KPIs are compared with) computed here, then filtered and summed.
   */
  async dashboard(query: AnalyticsQuery, today: string): Promise<AnalyticsResponse> {
    const periods = periodsBetween(query.granularity, query.from, query.to);
    const compared = comparedPeriods(query.granularity, periods, today);
    const first = compared?.previousFrom ?? periods[0] ?? query.from;
    const last = periods[periods.length - 1] ?? query.to;
    // Every period overlapping the range counts whole, as in the API.
    const range = (column: string) => `${column} >= timestamp '${first}' and ${column} < timestamp '${addDays(periodEnd(query.granularity, last), 1)}'`;
    const channel = query.channel === 'all' ? '' : ` and channel = '${query.channel}'`;
    const zeros = (names: string[]) => names.map((name) => `0 as ${name}`).join(', ');
    const events = [
      `select user_id, started_at as instant, 1 as sessions, length_seconds as session_seconds, coalesce(played_seconds, length_seconds) as played_seconds,
              suspicious as suspicious_sessions, ${zeros(['launches', 'activations', 'sales', 'is_new'])}, null::varchar as format
       from sessions where ${range('started_at')}${channel}`,
      `select user_id, exported_at, ${zeros(['sessions', 'session_seconds', 'played_seconds', 'suspicious_sessions', 'launches', 'activations', 'sales', 'is_new'])}, format
       from exports where ${range('exported_at')}${channel}`,
      `select user_id, launched_at, ${zeros(['sessions', 'session_seconds', 'played_seconds', 'suspicious_sessions'])}, 1, 0, 0, 0, null from launches where ${range('launched_at')}${channel}`,
      `select user_id, activated_at, ${zeros(['sessions', 'session_seconds', 'played_seconds', 'suspicious_sessions', 'launches'])}, 1, 0, 0, null from activations where ${range('activated_at')}${channel}`,
      `select user_id, sold_at, ${zeros(['sessions', 'session_seconds', 'played_seconds', 'suspicious_sessions', 'launches', 'activations'])}, 1, 0, null from sales where ${range('sold_at')}${channel}`,
      // New users: sign-ups for all channels, the first activation through it for a store channel.
      query.channel === 'all'
        ? `select id, created_at, ${zeros(['sessions', 'session_seconds', 'played_seconds', 'suspicious_sessions', 'launches', 'activations', 'sales'])}, 1, null from users where ${range('created_at')}`
        : `select user_id, first_at, ${zeros(['sessions', 'session_seconds', 'played_seconds', 'suspicious_sessions', 'launches', 'activations', 'sales'])}, 1, null from user_channels where ${range('first_at')}${channel}`,
    ].join('\nunion all\n');
    const rows = await this.rows(
      `with user_periods as (
         select user_id, date_trunc('${query.granularity}', instant) as period,
                sum(sessions) as sessions, sum(session_seconds) as session_seconds, sum(played_seconds) as played_seconds,
                sum(suspicious_sessions) as suspicious_sessions, sum(launches) as launches, sum(activations) as activations, sum(sales) as sales,
                max(is_new) as is_new, ${EXPORT_FORMATS.map((format) => `count(*) filter (where format = '${format}') as exports_${format}`).join(', ')}
         from (${events}) as events
         group by all
       )
       select strftime(period, '%Y-%m-%d') as period, ${sum('is_new')} as is_new, count(*) filter (where sessions > 0) as active_users,
              ${['sessions', 'session_seconds', 'played_seconds', 'launches', 'activations', 'sales', ...EXPORT_FORMATS.map((format) => `exports_${format}`)].map((name) => `${sum(name)} as ${name}`).join(', ')}
       from user_periods
       where ${DuckAnalytics.filters(query)}
       group by all`,
    );
    const byPeriod = new Map(rows.map((row) => [String(row.period), row]));
    const point = (period: string): AnalyticsPoint => {
      const row = byPeriod.get(period);
      const value = (name: string) => Number(row?.[name] ?? 0);
      const sessions = value('sessions');
      const sessionSeconds = value('session_seconds');
      return {
        period,
        newUsers: value('is_new'),
        activeUsers: value('active_users'),
        sessions,
        sessionSeconds,
        averageSessionSeconds: sessions ? sessionSeconds / sessions : 0,
        playedSeconds: value('played_seconds'),
        launches: value('launches'),
        activations: value('activations'),
        sales: value('sales'),
        exports: Object.fromEntries(EXPORT_FORMATS.map((format) => [format, value(`exports_${format}`)])) as AnalyticsPoint['exports'],
      };
    };
    /** The points of some periods added up (averageSessionSeconds of the sums). */
    const sumOf = (list: readonly string[]): Omit<AnalyticsPoint, 'period'> => {
      const points = list.map(point);
      const add = (read: (p: AnalyticsPoint) => number) => points.reduce((total, p) => total + read(p), 0);
      const sessions = add((p) => p.sessions);
      const sessionSeconds = add((p) => p.sessionSeconds);
      return {
        newUsers: add((p) => p.newUsers),
        activeUsers: add((p) => p.activeUsers),
        sessions,
        sessionSeconds,
        averageSessionSeconds: sessions ? sessionSeconds / sessions : 0,
        playedSeconds: add((p) => p.playedSeconds),
        launches: add((p) => p.launches),
        activations: add((p) => p.activations),
        sales: add((p) => p.sales),
        exports: Object.fromEntries(EXPORT_FORMATS.map((format) => [format, add((p) => p.exports[format])])) as AnalyticsPoint['exports'],
      };
    };
    const totals = sumOf(periods);
    let comparison: AnalyticsResponse['comparison'] = null;
    if (compared) {
      const count = compared.complete.length;
      const current = kpiFigures(sumOf(compared.complete), count);
      const previous = kpiFigures(sumOf(compared.previous), count);
      const { from, to, previousFrom, previousTo } = compared;
      comparison = { periods: count, from, to, previousFrom, previousTo, current, previous, change: compareKpis(current, previous) };
    }
    return {
      granularity: query.granularity,
      channel: query.channel,
      series: periods.map(point),
      totals: { ...totals, activeUsers: Math.round(totals.activeUsers / Math.max(1, periods.length)) },
      incompleteFrom: incompleteFrom(query.granularity, periods, today),
      comparison,
    };
  }

  /** `GET /api/analytics/cohorts` over the raw rows: each member's whole history summed here. */
  async cohorts(query: CohortQuery, today: string): Promise<CohortResponse> {
    const firstCohort = periodOf(query.granularity, query.from);
    const rows = await this.rows(
      `with members as (
         select id, created_at::date as signup_day from users
         where created_at >= timestamp '${firstCohort}' and date_trunc('${query.granularity}', created_at) <= timestamp '${query.to}'
       ),
       lifetimes as (
         select m.signup_day, max(s.started_at::date) as last_active_day,
                coalesce(sum(coalesce(s.played_seconds, s.length_seconds)), 0) as played_seconds, coalesce(sum(s.suspicious), 0) as suspicious_sessions
         from members as m left join sessions as s on s.user_id = m.id
         group by m.id, m.signup_day
       )
       select strftime(date_trunc('${query.granularity}', signup_day), '%Y-%m-%d') as cohort, count(*) as users,
              ${RETENTION_DAYS.map((day) => `count(*) filter (where last_active_day - signup_day >= ${day}) as retained_${day}`).join(', ')}
       from lifetimes
       where ${DuckAnalytics.filters(query)}
       group by all`,
    );
    const byCohort = new Map(rows.map((row) => [String(row.cohort), row]));
    return {
      granularity: query.granularity,
      cohorts: periodsBetween(query.granularity, query.from, query.to).map((cohort) => {
        const row = byCohort.get(cohort);
        const users = Number(row?.users ?? 0);
        const lastSignup = periodEnd(query.granularity, cohort);
        return {
          cohort,
          users,
          retention: RETENTION_DAYS.map((day) => {
            if (addDays(lastSignup, day) > today) return { day, users: null, percent: null };
            const retained = Number(row?.[`retained_${day}`] ?? 0);
            return { day, users: retained, percent: users ? Math.round((retained / users) * 1000) / 10 : null };
          }),
        };
      }),
    };
  }

  close(): void {
    this.connection.closeSync();
    this.instance.closeSync();
  }
}
