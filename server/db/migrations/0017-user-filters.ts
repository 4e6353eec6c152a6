import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../index.js';

/** The sort indexes of 0009, rebuilt here to carry the segment. */
const SORT_COLUMNS = [
  'first_name',
  'email',
  'last_name',
  'email_verified_at',
  'google_connected',
  'facebook_connected',
  'newsletter',
  'created_at',
  'downloaded_at',
  'last_launched_at',
  'is_admin',
] as const;

/**
 * The plan a user is on, for the admin grid's plan filter (issue 21 item 2), one value per user by the
 * precedence of the entitlement rules (server/modules/licensing/entitlements.ts): a paid subscription
 * (active or past due), else a licence (any unreturned one, full or Lite), else a trial, else free. A
 * subscription being undone as a duplicate counts for nothing. It depends on the status alone, not on
 * the clock, so it can be kept by triggers: Paddle's webhook moves an ended trial out of `trialing`.
 */
const planOf = (who: string) => `case
  when exists (select 1 from subscriptions s where s.user_id = ${who} and s.duplicate_of is null and s.status in ('active', 'past_due')) then 'subscriber'
  when exists (select 1 from licences l where l.user_id = ${who} and l.revoked_at is null) then 'licence-owner'
  when exists (select 1 from subscriptions s where s.user_id = ${who} and s.duplicate_of is null and s.status = 'trialing') then 'trial'
  else 'free' end`;

/**
 * Every filter of the grid as one small number (server/modules/users/segments.ts reads the same layout):
 * bit 0 verified, 1 admin, 2 newsletter, 3 signs in with a password, 4 Google, 5 Facebook, bits 6-7 the
 * plan (free 0, trial 1, subscriber 2, licence owner 3).
 */
const SEGMENT = `(case when email_verified_at is not null then 1 else 0 end)
  + 2 * is_admin + 4 * newsletter
  + (case when password_hash is not null then 8 else 0 end)
  + 16 * google_connected + 32 * facebook_connected
  + 64 * (case plan when 'trial' then 1 when 'subscriber' then 2 when 'licence-owner' then 3 else 0 end)`;

/** The columns the segment is computed from (SQLite's trigger recomputes it when one of them changes). */
const SEGMENT_INPUTS = 'email_verified_at, is_admin, newsletter, password_hash, google_connected, facebook_connected, plan';

/**
 * The admin grid's filters (verified, admin, newsletter, sign-in method, plan) at a million users,
 * counted and paged from indexes as 0009's sorting is:
 * - `users.plan` is kept by triggers on subscriptions and licences (as 0009 keeps the Google, Facebook
 *   and admin flags), so no code path can forget it and a filter never joins those tables. (An EXISTS
 *   per user instead would count "free" users by probing two tables a million times.)
 * - `users.segment` folds every filter into one number (256 values): any combination of filters is a
 *   set of segments, counted from one index (segment, created_at, id). PostgreSQL computes it as a stored
 *   generated column; SQLite cannot add one to an existing table, so triggers keep it there.
 * - Each sort index of 0009 is rebuilt to carry the segment (SQLite: a trailing key column; PostgreSQL:
 *   INCLUDE), so a filtered page in any order is a walk of the sort index that never reads a table row.
 */
export function userFilters(dialect: Dialect): Migration {
  const postgres = dialect === 'postgres';
  const sortIndex = async (db: Kysely<unknown>, column: string, withSegment: boolean) => {
    const name = sql.raw(`users_sort_${column}_idx`);
    await sql`drop index ${name}`.execute(db);
    const key = postgres ? sql`${sql.ref(column)} nulls first, id` : sql`${sql.ref(column)}, id`;
    const inKey = withSegment && !postgres ? sql`, segment` : sql``;
    const include = withSegment && postgres ? sql` include (segment)` : sql``;
    await sql`create index ${name} on users (${key}${inKey})${include}`.execute(db);
  };
  return {
    async up(db) {
      await sql`alter table users add column plan text not null default 'free'`.execute(db);
      await sql.raw(`update users set plan = ${planOf('users.id')} where id in (select user_id from subscriptions union select user_id from licences)`).execute(db);
      const recompute = (who: 'NEW' | 'OLD') => `update users set plan = ${planOf(`${who}.user_id`)} where id = ${who}.user_id`;
      if (postgres) {
        await sql.raw(`alter table users add column segment integer generated always as (${SEGMENT}) stored`).execute(db);
        await sql.raw(`create function users_sync_plan() returns trigger language plpgsql as $$
          begin
            if tg_op in ('UPDATE', 'DELETE') and OLD.user_id is not null then ${recompute('OLD')}; end if;
            if tg_op in ('INSERT', 'UPDATE') and NEW.user_id is not null then ${recompute('NEW')}; end if;
            return null;
          end $$`).execute(db);
        for (const table of ['subscriptions', 'licences']) {
          await sql.raw(`create trigger ${table}_plan_sync after insert or update or delete on ${table} for each row execute function users_sync_plan()`).execute(db);
        }
      } else {
        await sql`alter table users add column segment integer not null default 0`.execute(db);
        await sql.raw(`update users set segment = ${SEGMENT}`).execute(db);
        await sql.raw(`create trigger users_segment_ai after insert on users begin update users set segment = ${SEGMENT} where id = NEW.id; end`).execute(db);
        await sql.raw(`create trigger users_segment_au after update of ${SEGMENT_INPUTS} on users begin update users set segment = ${SEGMENT} where id = NEW.id; end`).execute(db);
        for (const table of ['subscriptions', 'licences']) {
          await sql.raw(`create trigger ${table}_plan_ai after insert on ${table} begin ${recompute('NEW')}; end`).execute(db);
          await sql.raw(`create trigger ${table}_plan_au after update on ${table} begin ${recompute('OLD')}; ${recompute('NEW')}; end`).execute(db);
          await sql.raw(`create trigger ${table}_plan_ad after delete on ${table} begin ${recompute('OLD')}; end`).execute(db);
        }
      }
      await sql`create index users_filter_segment_idx on users (segment, created_at, id)`.execute(db);
      for (const column of SORT_COLUMNS) await sortIndex(db, column, true);
      if (postgres) await sql`analyze users`.execute(db);
    },
    async down(db) {
      for (const column of SORT_COLUMNS) await sortIndex(db, column, false);
      await sql`drop index users_filter_segment_idx`.execute(db);
      if (postgres) {
        for (const table of ['subscriptions', 'licences']) await sql.raw(`drop trigger ${table}_plan_sync on ${table}`).execute(db);
        await sql`drop function users_sync_plan`.execute(db);
      } else {
        for (const trigger of ['users_segment_ai', 'users_segment_au', ...['subscriptions', 'licences'].flatMap((t) => [`${t}_plan_ai`, `${t}_plan_au`, `${t}_plan_ad`])]) {
          await sql.raw(`drop trigger ${trigger}`).execute(db);
        }
      }
      await sql`alter table users drop column segment`.execute(db);
      await sql`alter table users drop column plan`.execute(db);
    },
  };
}
