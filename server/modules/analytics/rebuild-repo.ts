import { sql, type Transaction } from 'kysely';
import { RETENTION_DAYS } from '../../../contract/analytics.js';
import { EXPORT_FORMATS } from '../../../contract/licensing.js';
import type { Dialect } from '../../db/index.js';
import type { Database } from '../../db/schema.js';
import { PERIOD_FIGURES, type Figure } from './figures.js';

/**
 * The set-based statements of ./rebuild.ts: every derived analytics table recomputed from the raw rows,
 * each table by one statement over the whole of the one before it. They read the users module's table
 * for sign-up days inside the statement (a million users do not pass through a function); see the note
 * in ./reports-repo.ts on why analytics cannot yet ask the users module.
 */

type Trx = Transaction<Database>;

/** The SQL each dialect needs for the period arithmetic of periods.ts (UTC days as yyyy-MM-dd text). */
function calendar(dialect: Dialect) {
  const postgres = dialect === 'postgres';
  return {
    day: (timestamp: string) => (postgres ? `to_char(${timestamp} at time zone 'UTC', 'YYYY-MM-DD')` : `substr(${timestamp}, 1, 10)`),
    week: (day: string) =>
      postgres ? `to_char(date_trunc('week', ${day}::date), 'YYYY-MM-DD')` : `date(${day}, '-' || ((cast(strftime('%w', ${day}) as integer) + 6) % 7) || ' days')`,
    month: (day: string) => `substr(${day}, 1, 8) || '01'`,
    daysFrom: (from: string, to: string) => (postgres ? `(${to}::date - ${from}::date)` : `cast(julianday(${to}) - julianday(${from}) as integer)`),
  };
}

const figures = (values: Partial<Record<Figure, string>>) => PERIOD_FIGURES.map((name) => `${values[name] ?? '0'} as ${name}`).join(', ');
const columns = PERIOD_FIGURES.join(', ');
const sums = PERIOD_FIGURES.map((name) => (name === 'is_new' ? 'max(is_new)' : `sum(${name})`)).join(', ');

/** Empties the derived tables (the raw rows stay). */
export async function clearDerivedTables(trx: Trx): Promise<void> {
  for (const table of ['analytics_cohorts', 'analytics_user_lifetimes', 'analytics_rollups', 'analytics_user_periods'] as const) await trx.deleteFrom(table).execute();
}

/**
 * Daily user-periods from the raw reports (each for its channel and for 'all') and the arrivals of new
 * users: to 'all' at sign-up, to a store channel at the first activation through it.
 */
export async function insertDailyUserPeriods(trx: Trx, dialect: Dialect): Promise<void> {
  const { day } = calendar(dialect);
  // Reports that count for their channel and for 'all'.
  const reports = [
    `select user_id, ${day('started_at')} as day, channel, ${figures({
      sessions: '1',
      session_seconds: 'length_seconds',
      played_seconds: 'coalesce(played_seconds, length_seconds)',
      suspicious_sessions: 'suspicious',
    })} from analytics_sessions`,
    `select user_id, ${day('exported_at')} as day, channel, ${figures(
      Object.fromEntries(EXPORT_FORMATS.map((format) => [`exports_${format}`, `case when format = '${format}' then 1 else 0 end`])),
    )} from analytics_exports`,
    `select user_id, ${day('launched_at')} as day, channel, ${figures({ launches: '1' })} from analytics_launches`,
    `select user_id, ${day('activated_at')} as day, channel, ${figures({ activations: '1' })} from analytics_activations`,
    `select user_id, ${day('sold_at')} as day, channel, ${figures({ sales: '1' })} from analytics_sales`,
  ].join(' union all ');
  // New users: to 'all' at sign-up, to a store channel at the first activation through it.
  const arrivals = [
    `select id as user_id, ${day('created_at')} as day, 'all' as channel, ${figures({ is_new: '1' })} from users`,
    `select user_id, ${day('first_at')} as day, channel, ${figures({ is_new: '1' })} from analytics_user_channels`,
  ].join(' union all ');
  await sql
    .raw(
      `insert into analytics_user_periods (user_id, grain, period, channel, ${columns})
         select user_id, 'day', day, channel, ${sums}
         from (select * from (${reports}) as r
               union all select user_id, day, 'all', ${columns} from (${reports}) as r
               union all select * from (${arrivals}) as a) as e
         group by user_id, day, channel`,
    )
    .execute(trx);
}

/** The weekly or monthly user-periods, summed from the daily ones. */
export async function insertUserPeriodsOfGrain(trx: Trx, dialect: Dialect, grain: 'week' | 'month'): Promise<void> {
  const { week, month } = calendar(dialect);
  const period = grain === 'week' ? week('period') : month('period');
  await sql
    .raw(
      `insert into analytics_user_periods (user_id, grain, period, channel, ${columns})
           select user_id, '${grain}', ${period}, channel, ${sums}
           from analytics_user_periods where grain = 'day'
           group by user_id, ${period}, channel`,
    )
    .execute(trx);
}

/** The rollup rows: the user-periods summed by grain, channel, period, suspicious or not, and played minutes. */
export async function insertRollups(trx: Trx): Promise<void> {
  await sql
    .raw(
      `insert into analytics_rollups (grain, channel, period, suspicious, played_minutes, user_periods, active_users, ${columns})
         select grain, channel, period, case when suspicious_sessions > 0 then 1 else 0 end, played_seconds / 60,
                count(*), sum(case when sessions > 0 then 1 else 0 end), ${PERIOD_FIGURES.map((name) => `sum(${name})`).join(', ')}
         from analytics_user_periods
         group by grain, channel, period, case when suspicious_sessions > 0 then 1 else 0 end, played_seconds / 60`,
    )
    .execute(trx);
}

/** Every user's lifetime: sign-up day, last day with a session, played time and suspicious sessions. */
export async function insertLifetimes(trx: Trx, dialect: Dialect): Promise<void> {
  const { day } = calendar(dialect);
  await sql
    .raw(
      `insert into analytics_user_lifetimes (user_id, signup_day, last_active_day, played_seconds, suspicious_sessions)
         select u.id, ${day('u.created_at')}, a.last_active_day, coalesce(a.played_seconds, 0), coalesce(a.suspicious_sessions, 0)
         from users as u
         left join (select user_id, max(case when sessions > 0 then period end) as last_active_day,
                           sum(played_seconds) as played_seconds, sum(suspicious_sessions) as suspicious_sessions
                    from analytics_user_periods where grain = 'day' and channel = 'all' group by user_id) as a
           on a.user_id = u.id`,
    )
    .execute(trx);
}

/** The cohort rows: the lifetimes counted by sign-up week and month, suspicious or not, played minutes and retention days reached. */
export async function insertCohorts(trx: Trx, dialect: Dialect): Promise<void> {
  const { week, month, daysFrom } = calendar(dialect);
  const retained = RETENTION_DAYS.map((days) => `case when ${daysFrom('signup_day', 'last_active_day')} >= ${days} then 1 else 0 end`).join(' + ');
  await sql
    .raw(
      `insert into analytics_cohorts (grain, cohort, suspicious, played_minutes, retained, users)
         select grain, cohort, suspicious, played_minutes, retained, count(*)
         from (select g.grain,
                      case when g.grain = 'week' then ${week('signup_day')} else ${month('signup_day')} end as cohort,
                      case when suspicious_sessions > 0 then 1 else 0 end as suspicious,
                      played_seconds / 60 as played_minutes,
                      case when last_active_day is null then 0 else ${retained} end as retained
               from analytics_user_lifetimes cross join (select 'week' as grain union all select 'month') as g) as c
         group by grain, cohort, suspicious, played_minutes, retained`,
    )
    .execute(trx);
}
