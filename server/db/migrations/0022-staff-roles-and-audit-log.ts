import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../index.js';
import { timestampType } from './types.js';

const ROLES_BEFORE = ['user', 'admin'];
const ROLES_AFTER = ['user', 'admin', 'support', 'analyst'];
const roleCheck = (roles: string[]) => sql.raw(`role in (${roles.map((role) => `'${role}'`).join(', ')})`);

/**
 * SQLite cannot change a table's CHECK: `user_roles` is made anew with the wider one, its rows kept aside
 * meanwhile, and its index and the triggers that keep `users.is_admin` (0009) made again. Nothing references
 * `user_roles`, so dropping it touches no other row; and nothing is renamed (SQLite's rename checks every
 * trigger of the schema, and 0018's use the upsert's `excluded` rows that check cannot read).
 */
async function rebuildSqliteRoles(db: Kysely<unknown>, roles: string[]): Promise<void> {
  await sql`create temporary table user_roles_kept as select user_id, role from user_roles where ${roleCheck(roles)}`.execute(db);
  await sql`drop table user_roles`.execute(db);
  await sql`create table user_roles (
    user_id text not null references users (id) on delete cascade,
    role text not null check (${roleCheck(roles)}),
    constraint user_roles_pk primary key (user_id, role)
  )`.execute(db);
  await sql`create index user_roles_role_idx on user_roles (role, user_id)`.execute(db);
  const admin = (who: 'NEW' | 'OLD') => sql.raw(`update users set
          is_admin = case when exists (select 1 from user_roles r where r.user_id = ${who}.user_id and r.role = 'admin') then 1 else 0 end
          where id = ${who}.user_id`);
  await sql`create trigger user_roles_ai after insert on user_roles begin ${admin('NEW')}; end`.execute(db);
  await sql`create trigger user_roles_ad after delete on user_roles begin ${admin('OLD')}; end`.execute(db);
  // The rows come back through the triggers, so `users.is_admin` is what they say, as before.
  await sql`insert into user_roles (user_id, role) select user_id, role from user_roles_kept`.execute(db);
  await sql`drop table user_roles_kept`.execute(db);
}

/**
 * Issue 47, staff with the right keys:
 * - `user_roles` takes the staff roles `support` and `analyst` beside `user` and `admin`.
 * - `sessions.viewed_by`: a read-only "view as this user" session is the customer's session opened by a staff
 *   member, named here; it goes with that staff account (the view ends), and its access tokens say so in a
 *   claim the guard reads (server/plugins/authentication.ts), so the row is never read on a request for it.
 * - `audit_log`: every staff action across accounts, append-only. Its subject and actor are ids without a
 *   foreign key (an entry outlives both accounts: the activity log forgets a deleted account's entries, the
 *   audit log keeps what staff did), and the actor's email and role are kept as they were when they acted.
 *   Triggers refuse UPDATE and DELETE (and, on PostgreSQL, TRUNCATE) on the table, so no code path, route or
 *   mistaken statement of the application changes the record; only an operator who drops the trigger can.
 */
export function staffRolesAndAuditLog(dialect: Dialect): Migration {
  const ts = timestampType(dialect);
  const postgres = dialect === 'postgres';
  return {
    async up(db: Kysely<unknown>) {
      if (postgres) {
        await sql`alter table user_roles drop constraint if exists user_roles_role_check`.execute(db);
        await sql`alter table user_roles add constraint user_roles_role_check check (${roleCheck(ROLES_AFTER)})`.execute(db);
      } else {
        await rebuildSqliteRoles(db, ROLES_AFTER);
      }

      // Already there on SQLite after this migration's down (which cannot drop it there).
      const sessionsTable = (await db.introspection.getTables()).find((table) => table.name === 'sessions');
      if (!sessionsTable?.columns.some((column) => column.name === 'viewed_by')) {
        await db.schema
          .alterTable('sessions')
          .addColumn('viewed_by', 'text', (c) => c.references('users.id').onDelete('cascade'))
          .execute();
      }
      await sql`create index sessions_viewed_by_idx on sessions (viewed_by) where viewed_by is not null`.execute(db);

      await db.schema
        .createTable('audit_log')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('actor_id', 'text', (c) => c.notNull())
        .addColumn('actor_email', 'text', (c) => c.notNull())
        .addColumn('actor_role', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('subject_id', 'text')
        .addColumn('details', 'text', (c) => c.notNull())
        .execute();
      // Newest first, ties by id (time-ordered), whole or by one actor, subject or action.
      await sql`create index audit_log_time_idx on audit_log (created_at, id)`.execute(db);
      await sql`create index audit_log_actor_idx on audit_log (actor_id, created_at, id)`.execute(db);
      await sql`create index audit_log_subject_idx on audit_log (subject_id, created_at, id)`.execute(db);
      await sql`create index audit_log_action_idx on audit_log (action, created_at, id)`.execute(db);
      if (postgres) {
        await sql`create function audit_log_append_only() returns trigger language plpgsql as $$
          begin
            raise exception 'audit_log is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
          end $$`.execute(db);
        await sql`create trigger audit_log_no_change before update or delete on audit_log for each row execute function audit_log_append_only()`.execute(db);
        await sql`create trigger audit_log_no_truncate before truncate on audit_log for each statement execute function audit_log_append_only()`.execute(db);
      } else {
        await sql`create trigger audit_log_no_update before update on audit_log begin select raise(abort, 'audit_log is append-only: UPDATE refused'); end`.execute(db);
        await sql`create trigger audit_log_no_delete before delete on audit_log begin select raise(abort, 'audit_log is append-only: DELETE refused'); end`.execute(db);
      }
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('audit_log').execute();
      if (postgres) await sql`drop function audit_log_append_only`.execute(db);
      await sql`drop index sessions_viewed_by_idx`.execute(db);
      // SQLite cannot drop a column while 0018's triggers are in the schema (its check of every trigger cannot
      // read their upsert's `excluded` rows): there the column stays, nullable and read by nothing before 0022.
      if (postgres) await db.schema.alterTable('sessions').dropColumn('viewed_by').execute();
      if (postgres) {
        await sql`delete from user_roles where not (${roleCheck(ROLES_BEFORE)})`.execute(db);
        await sql`alter table user_roles drop constraint user_roles_role_check`.execute(db);
        await sql`alter table user_roles add constraint user_roles_role_check check (${roleCheck(ROLES_BEFORE)})`.execute(db);
      } else {
        await rebuildSqliteRoles(db, ROLES_BEFORE);
      }
    },
  };
}
