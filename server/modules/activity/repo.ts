import type { Kysely } from 'kysely';
import { v7 as timeOrderedId } from 'uuid';
import type { ActivityEntry, ActivityKind, ActivityQuery } from '../../../contract/activity.js';
import type { AuditAction } from '../../../contract/audit.js';
import type { Database } from '../../db/schema.js';
import { recordStaffAction, type StaffActor } from './audit-repo.js';

/**
 * The one activity log (issue 21) and every statement on its table, `activity_log`. A service writes its
 * entry with the change it describes, in the same transaction, so an entry exists exactly when the change
 * does: a webhook delivered twice, whose second delivery changes nothing, writes nothing the second time.
 */
export interface ActivityRecord {
  /** For an entry a retried or replayed event could write twice: its one key (e.g. `purchase:<transaction>`). */
  key?: string;
  userId: string;
  kind: ActivityKind;
  /** The admin who acted; null (the default) when the user or the portal itself did. */
  actorId?: string | null;
  /**
   * Issue 47: a staff member did this from the admin area. They are the entry's actor, and the audit log keeps
   * the action too, in the same transaction (`auditAction`, or the entry's kind), long after the account's
   * timeline is gone.
   */
  staff?: StaffActor | null;
  auditAction?: AuditAction;
  /** No secrets and nothing personal beyond what the account page already shows. */
  details?: Record<string, unknown>;
  at: Date | string;
}

export async function recordActivity(db: Kysely<Database>, entry: ActivityRecord): Promise<void> {
  const staff = entry.staff ?? null;
  await db
    .insertInto('activity_log')
    .values({
      // Time-ordered (UUIDv7, the uuid package), so entries of the same instant list in the order written.
      id: timeOrderedId(),
      key: entry.key ?? null,
      user_id: entry.userId,
      actor_id: staff?.id ?? entry.actorId ?? null,
      kind: entry.kind,
      details: JSON.stringify(entry.details ?? {}),
      created_at: typeof entry.at === 'string' ? entry.at : entry.at.toISOString(),
    })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  if (staff) {
    await recordStaffAction(db, { actor: staff, action: entry.auditAction ?? (entry.kind as AuditAction), subjectId: entry.userId, details: entry.details ?? {}, at: entry.at });
  }
}

/** Forgets an account's timeline when the account goes (its deletion entry is written after this). */
export async function forgetActivity(db: Kysely<Database>, userId: string): Promise<void> {
  await db.deleteFrom('activity_log').where('user_id', '=', userId).execute();
}

/**
 * An entry as the log keeps it. The acting admin is named by id; their email is the users module's to
 * tell (the admin user page, which shows the timeline, adds it), so the log reads no other module's table.
 */
export type LoggedEntry = Omit<ActivityEntry, 'actorEmail'>;

function entries(db: Kysely<Database>, userId: string) {
  return db.selectFrom('activity_log').select(['id', 'actor_id', 'kind', 'details', 'created_at']).where('user_id', '=', userId);
}

type EntryRow = Awaited<ReturnType<ReturnType<typeof entries>['execute']>>[number];

function toEntry(row: EntryRow): LoggedEntry {
  return {
    id: row.id,
    kind: row.kind as ActivityKind,
    actorId: row.actor_id,
    details: JSON.parse(row.details) as Record<string, unknown>,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** `GET /users/{id}/activity`: one page of the timeline, newest first (ties by id), and its length. */
export async function activityOf(db: Kysely<Database>, userId: string, query: ActivityQuery): Promise<{ data: LoggedEntry[]; total: number }> {
  const [rows, count] = await Promise.all([
    entries(db, userId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(query.take).offset(query.skip).execute(),
    db
      .selectFrom('activity_log')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
  ]);
  return { data: rows.map(toEntry), total: Number(count.n) };
}

/** The entries of the given kinds, newest first (at most 200): the admin changes the history dialog shows. */
export async function activityOfKinds(db: Kysely<Database>, userId: string, kinds: readonly ActivityKind[]): Promise<LoggedEntry[]> {
  const rows = await entries(db, userId).where('kind', 'in', [...kinds]).orderBy('created_at', 'desc').orderBy('id').limit(200).execute();
  return rows.map(toEntry);
}

/** The whole timeline as the data export gives it (issue 17): oldest first, the details as stored (JSON text). */
export async function activityForExport(db: Kysely<Database>, userId: string) {
  return db.selectFrom('activity_log').select(['kind', 'actor_id', 'details', 'created_at']).where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
}
