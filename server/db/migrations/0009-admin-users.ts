import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../index.js';
import { timestampType } from './types.js';

/** Columns of the admin users list that can be sorted, each with an index ending in id (the tiebreak). */
const SORT_INDEXES = [
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
 * The admin users list at a million users: every sortable column is a plain column of `users` with an
 * index (column, id), so a page is an index walk, never a sort. Whether Google or Facebook is connected
 * and whether the user is an admin are kept on `users` by triggers on social_accounts and user_roles, so
 * no code path can forget them. Name and email prefix search use indexes on the lower-cased values.
 * PostgreSQL's indexes put NULLs first, as SQLite orders them, so both dialects page alike.
 * Admin changes are written to `audit_log`.
 */
export function adminUsers(dialect: Dialect): Migration {
  const ts = timestampType(dialect);
  const postgres = dialect === 'postgres';
  return {
    async up(db: Kysely<unknown>) {
      for (const column of ['google_connected', 'facebook_connected', 'is_admin']) {
        await db.schema
          .alterTable('users')
          .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
      }
      await sql`update users set
        google_connected = case when exists (select 1 from social_accounts s where s.user_id = users.id and s.provider = 'google') then 1 else 0 end,
        facebook_connected = case when exists (select 1 from social_accounts s where s.user_id = users.id and s.provider = 'facebook') then 1 else 0 end,
        is_admin = case when exists (select 1 from user_roles r where r.user_id = users.id and r.role = 'admin') then 1 else 0 end`.execute(db);

      const social = (who: 'NEW' | 'OLD') => sql.raw(`update users set
          google_connected = case when exists (select 1 from social_accounts s where s.user_id = ${who}.user_id and s.provider = 'google') then 1 else 0 end,
          facebook_connected = case when exists (select 1 from social_accounts s where s.user_id = ${who}.user_id and s.provider = 'facebook') then 1 else 0 end
          where id = ${who}.user_id`);
      const admin = (who: 'NEW' | 'OLD') => sql.raw(`update users set
          is_admin = case when exists (select 1 from user_roles r where r.user_id = ${who}.user_id and r.role = 'admin') then 1 else 0 end
          where id = ${who}.user_id`);
      if (postgres) {
        await sql`create function users_sync_social() returns trigger language plpgsql as $$
          begin
            if tg_op = 'DELETE' then ${social('OLD')}; return OLD; end if;
            ${social('NEW')}; return NEW;
          end $$`.execute(db);
        await sql`create function users_sync_admin() returns trigger language plpgsql as $$
          begin
            if tg_op = 'DELETE' then ${admin('OLD')}; return OLD; end if;
            ${admin('NEW')}; return NEW;
          end $$`.execute(db);
        await sql`create trigger social_accounts_sync after insert or delete on social_accounts for each row execute function users_sync_social()`.execute(db);
        await sql`create trigger user_roles_sync after insert or delete on user_roles for each row execute function users_sync_admin()`.execute(db);
      } else {
        await sql`create trigger social_accounts_ai after insert on social_accounts begin ${social('NEW')}; end`.execute(db);
        await sql`create trigger social_accounts_ad after delete on social_accounts begin ${social('OLD')}; end`.execute(db);
        await sql`create trigger user_roles_ai after insert on user_roles begin ${admin('NEW')}; end`.execute(db);
        await sql`create trigger user_roles_ad after delete on user_roles begin ${admin('OLD')}; end`.execute(db);
      }

      const nullsFirst = postgres ? sql.raw(' nulls first') : sql.raw('');
      for (const column of SORT_INDEXES) {
        await sql`create index ${sql.raw(`users_sort_${column}_idx`)} on users (${sql.ref(column)}${nullsFirst}, id)`.execute(db);
      }
      // Prefix search on lower-cased email and names (emails are stored lower-cased already).
      const ops = postgres ? sql.raw(' text_pattern_ops') : sql.raw('');
      await sql`create index users_search_email_idx on users (email${ops})`.execute(db);
      await sql`create index users_search_first_name_idx on users (lower(first_name)${ops})`.execute(db);
      await sql`create index users_search_last_name_idx on users (lower(last_name)${ops})`.execute(db);

      await db.schema
        .createTable('audit_log')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('actor_id', 'text', (c) => c.references('users.id').onDelete('set null'))
        // No foreign key: the entry outlives the user it is about.
        .addColumn('target_user_id', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('details', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('audit_log_target_idx').on('audit_log').columns(['target_user_id', 'created_at']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('audit_log').execute();
      if (postgres) {
        await sql`drop trigger social_accounts_sync on social_accounts`.execute(db);
        await sql`drop trigger user_roles_sync on user_roles`.execute(db);
        await sql`drop function users_sync_social`.execute(db);
        await sql`drop function users_sync_admin`.execute(db);
      } else {
        for (const trigger of ['social_accounts_ai', 'social_accounts_ad', 'user_roles_ai', 'user_roles_ad']) await sql`drop trigger ${sql.raw(trigger)}`.execute(db);
      }
      for (const column of SORT_INDEXES) await sql`drop index ${sql.raw(`users_sort_${column}_idx`)}`.execute(db);
      for (const index of ['users_search_email_idx', 'users_search_first_name_idx', 'users_search_last_name_idx']) await sql`drop index ${sql.raw(index)}`.execute(db);
      for (const column of ['google_connected', 'facebook_connected', 'is_admin']) await db.schema.alterTable('users').dropColumn(column).execute();
    },
  };
}
