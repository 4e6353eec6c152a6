import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../index.js';

/** Adds `delta` users to a segment's count, creating its row for the segment's first user. */
const add = (segment: string, delta: number) =>
  `insert into user_segment_counts as c (segment, users) values (${segment}, ${delta}) on conflict (segment) do update set users = c.users + excluded.users`;

/**
 * How many users each segment of 0017 holds (at most 256 rows), so the admin grid's filtered totals
 * (issue 21) are a sum over the filters' segments instead of a count of up to a million index entries
 * (server/modules/users/directory-repo.ts, listUsers). Triggers on users keep it, so no code path can
 * forget it: +1 for an inserted user's segment, -1 for a deleted one's, -1/+1 when a user's segment changes.
 * - SQLite: 0017's triggers set `users.segment` with an UPDATE inside a trigger (after an insert, and
 *   after an update of an input column). SQLite fires other triggers for a trigger's own statements
 *   (`recursive_triggers` only stops a trigger from firing itself), so `after update of segment` sees
 *   those changes. It fires triggers newest first: the insert trigger here counts the inserted row's
 *   default segment before 0017's trigger moves it, but every change is an upsert of a delta, so the
 *   order never matters (a decrement of a segment with no row yet would otherwise be lost).
 * - PostgreSQL: `segment` is a stored generated column, computed before AFTER triggers run, so NEW
 *   carries it; an UPDATE OF list never names a generated column, so the update trigger fires on any
 *   update and its WHEN skips those that leave the segment alone (row trigger, no function call). The
 *   upsert makes a segment's first user safe when two sessions insert it at once (one inserts, the
 *   other waits on the row and adds), and a move locks the lower segment first, so two users moving
 *   between the same two segments in opposite directions at once wait rather than deadlock. A count's
 *   row stays locked until its transaction commits: writers of users in one segment queue there.
 * The triggers are created before the counts are filled: on PostgreSQL creating them locks users
 * against writes until this migration commits, so no user is missed or counted twice.
 */
export function userSegmentCounts(dialect: Dialect): Migration {
  const postgres = dialect === 'postgres';
  return {
    async up(db: Kysely<unknown>) {
      await sql.raw(`create table user_segment_counts (segment integer primary key, users ${postgres ? 'bigint' : 'integer'} not null)`).execute(db);
      if (postgres) {
        await sql.raw(`create function user_segment_counts_follow() returns trigger language plpgsql as $$
          begin
            if tg_op = 'INSERT' then ${add('NEW.segment', 1)};
            elsif tg_op = 'DELETE' then ${add('OLD.segment', -1)};
            else
              insert into user_segment_counts as c (segment, users)
                select moved.segment, moved.delta from (values (OLD.segment, -1), (NEW.segment, 1)) as moved (segment, delta) order by moved.segment
                on conflict (segment) do update set users = c.users + excluded.users;
            end if;
            return null;
          end $$`).execute(db);
        await sql.raw(`create function user_segment_counts_clear() returns trigger language plpgsql as $$ begin delete from user_segment_counts; return null; end $$`).execute(db);
        await sql.raw(`create trigger users_segment_counts_ai after insert on users for each row execute function user_segment_counts_follow()`).execute(db);
        await sql.raw(`create trigger users_segment_counts_ad after delete on users for each row execute function user_segment_counts_follow()`).execute(db);
        await sql
          .raw(`create trigger users_segment_counts_au after update on users for each row when (OLD.segment is distinct from NEW.segment) execute function user_segment_counts_follow()`)
          .execute(db);
        await sql.raw(`create trigger users_segment_counts_truncate after truncate on users for each statement execute function user_segment_counts_clear()`).execute(db);
      } else {
        await sql.raw(`create trigger users_segment_counts_ai after insert on users begin ${add('NEW.segment', 1)}; end`).execute(db);
        await sql.raw(`create trigger users_segment_counts_ad after delete on users begin ${add('OLD.segment', -1)}; end`).execute(db);
        await sql
          .raw(`create trigger users_segment_counts_au after update of segment on users when OLD.segment is not NEW.segment begin ${add('OLD.segment', -1)}; ${add('NEW.segment', 1)}; end`)
          .execute(db);
      }
      await sql`insert into user_segment_counts (segment, users) select segment, count(*) from users group by segment`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      if (postgres) {
        for (const trigger of ['ai', 'ad', 'au', 'truncate']) await sql.raw(`drop trigger users_segment_counts_${trigger} on users`).execute(db);
        await sql`drop function user_segment_counts_follow`.execute(db);
        await sql`drop function user_segment_counts_clear`.execute(db);
      } else {
        for (const trigger of ['ai', 'ad', 'au']) await sql.raw(`drop trigger users_segment_counts_${trigger}`).execute(db);
      }
      await sql`drop table user_segment_counts`.execute(db);
    },
  };
}
