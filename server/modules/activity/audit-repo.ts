import type { Kysely } from 'kysely';
import { v7 as timeOrderedId } from 'uuid';
import type { AuditAction } from '../../../contract/audit.js';
import type { StaffRole } from '../../../contract/roles.js';
import type { Database } from '../../db/schema.js';

/**
 * The audit log (issue 47, `audit_log`): every staff action across accounts, written in the transaction of
 * the change it records, append-only. This module writes rows and reads them; nothing changes or deletes
 * one (the table's triggers refuse it, migration 0022), and no route offers to.
 */

/** The staff member acting, as the audit log names them: by id, and by email and role as they are now. */
export interface StaffActor {
  id: string;
  email: string;
  role: StaffRole;
}

export interface StaffActionRecord {
  actor: StaffActor;
  action: AuditAction;
  /** The account acted on; null for an action on no one account. */
  subjectId: string | null;
  /** What the action did: roles before and after, a count, the filters of an export. Nothing secret. */
  details?: Record<string, unknown>;
  at: Date | string;
}

export async function recordStaffAction(db: Kysely<Database>, entry: StaffActionRecord): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      id: timeOrderedId(),
      created_at: typeof entry.at === 'string' ? entry.at : entry.at.toISOString(),
      actor_id: entry.actor.id,
      actor_email: entry.actor.email,
      actor_role: entry.actor.role,
      action: entry.action,
      subject_id: entry.subjectId,
      details: JSON.stringify(entry.details ?? {}),
    })
    .execute();
}

/** The filters as the log applies them: ids and instants, the people named by email already resolved. */
export interface AuditSelection {
  /** An id, or an email (as the entry kept it, lower-cased). */
  actor?: string | undefined;
  action?: AuditAction | undefined;
  /** The subject's id; null when the filter named an account that does not exist (no entry matches). */
  subjectId?: string | null | undefined;
  /** Inclusive lower and exclusive upper bound, ISO instants. */
  from?: string | undefined;
  before?: string | undefined;
}

export interface AuditRow {
  id: string;
  created_at: string;
  actor_id: string;
  actor_email: string;
  actor_role: string;
  action: string;
  subject_id: string | null;
  details: string;
}

function selected(db: Kysely<Database>, selection: AuditSelection) {
  let query = db.selectFrom('audit_log');
  const { actor, action, subjectId, from, before } = selection;
  if (actor !== undefined) query = query.where((eb) => eb.or([eb('actor_id', '=', actor), eb('actor_email', '=', actor.toLowerCase())]));
  if (action !== undefined) query = query.where('action', '=', action);
  // A subject named by an email no account has: nothing matches.
  if (subjectId === null) query = query.where('subject_id', 'is', null).where('subject_id', 'is not', null);
  else if (subjectId !== undefined) query = query.where('subject_id', '=', subjectId);
  if (from !== undefined) query = query.where('created_at', '>=', from);
  if (before !== undefined) query = query.where('created_at', '<', before);
  return query;
}

const COLUMNS = ['id', 'created_at', 'actor_id', 'actor_email', 'actor_role', 'action', 'subject_id', 'details'] as const;

/** One page of the log, newest first (ties by id: the order written), and how many entries match. */
export async function auditPageOf(db: Kysely<Database>, selection: AuditSelection, page: { skip: number; take: number }): Promise<{ rows: AuditRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    selected(db, selection).select(COLUMNS).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.take).offset(page.skip).execute(),
    selected(db, selection)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/**
 * Every matching entry, newest first, a batch at a time (the CSV export): each batch continues below the
 * last one's (created_at, id), so a long log is walked by its index without an offset that grows.
 */
export async function* auditBatches(db: Kysely<Database>, selection: AuditSelection, size = 1_000): AsyncGenerator<AuditRow[]> {
  let after: { created_at: string; id: string } | null = null;
  for (;;) {
    let query = selected(db, selection).select(COLUMNS);
    if (after !== null) {
      const { created_at: at, id } = after;
      query = query.where((eb) => eb.or([eb('created_at', '<', at), eb.and([eb('created_at', '=', at), eb('id', '<', id)])]));
    }
    const rows: AuditRow[] = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(size).execute();
    if (rows.length === 0) return;
    yield rows;
    const last = rows[rows.length - 1] as AuditRow;
    after = { created_at: last.created_at, id: last.id };
    if (rows.length < size) return;
  }
}
