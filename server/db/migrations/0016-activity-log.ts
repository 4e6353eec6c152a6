import type { Kysely, Migration } from 'kysely';

/**
 * One activity log per account (issue 21): the admin audit trail becomes the log every service writes
 * what it did to an account (sign-up, verification, sign-ins, password changes, purchases, refunds,
 * cancellations, devices, coupons, role changes), so support reads one timeline. Entries keep no
 * foreign key: an account's deletion entry outlives the account (the deletion removes the others).
 */
export function activityLog(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.dropIndex('audit_log_target_idx').execute();
      await db.schema.alterTable('audit_log').renameTo('activity_log').execute();
      await db.schema.alterTable('activity_log').renameColumn('target_user_id', 'user_id').execute();
      await db.schema.alterTable('activity_log').renameColumn('action', 'kind').execute();
      // An event a retried or replayed delivery could write twice names itself (e.g. `purchase:<transaction>`).
      await db.schema.alterTable('activity_log').addColumn('key', 'text').execute();
      await db.schema.createIndex('activity_log_key_idx').on('activity_log').column('key').unique().execute();
      // The timeline pages newest first with ties by id (time-ordered), from this index alone.
      await db.schema.createIndex('activity_log_user_idx').on('activity_log').columns(['user_id', 'created_at', 'id']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('activity_log_user_idx').execute();
      await db.schema.dropIndex('activity_log_key_idx').execute();
      await db.schema.alterTable('activity_log').dropColumn('key').execute();
      await db.schema.alterTable('activity_log').renameColumn('kind', 'action').execute();
      await db.schema.alterTable('activity_log').renameColumn('user_id', 'target_user_id').execute();
      await db.schema.alterTable('activity_log').renameTo('audit_log').execute();
      await db.schema.createIndex('audit_log_target_idx').on('audit_log').columns(['target_user_id', 'created_at']).execute();
    },
  };
}
