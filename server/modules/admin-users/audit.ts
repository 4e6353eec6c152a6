import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { Kysely } from 'kysely';
import type { AuditAction, AuditFilters, AuditLogEntry, AuditPage, AuditQuery } from '../../../contract/audit.js';
import type { StaffRole } from '../../../contract/roles.js';
import type { Database } from '../../db/schema.js';
import { auditBatches, auditPageOf, type AuditRow, type AuditSelection } from '../activity/index.js';
import { emailsOf, type UsersRepo } from '../users/index.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export interface AuditDeps {
  db: Kysely<Database>;
  users: UsersRepo;
}

/**
 * The filters of `GET /admin/audit` as the log applies them (issue 47). A subject named by email is the
 * account with that email now (a deleted one is found by its id only: the log keeps no deleted person's
 * email); a day as `from` starts at its first instant, as `to` ends after its last.
 */
async function selectionOf(deps: AuditDeps, filters: AuditFilters): Promise<AuditSelection> {
  let subjectId: string | null | undefined;
  if (filters.subject !== undefined) {
    subjectId = UUID.test(filters.subject) ? filters.subject.toLowerCase() : ((await deps.users.findByEmail(filters.subject.toLowerCase()))?.id ?? null);
  }
  const instant = (value: string) => new Date(DAY.test(value) ? `${value}T00:00:00.000Z` : value);
  const to = filters.to === undefined ? undefined : instant(filters.to);
  if (to && DAY.test(filters.to ?? '')) to.setUTCDate(to.getUTCDate() + 1);
  else to?.setTime(to.getTime() + 1);
  return {
    // An id or an email: both are kept lower-cased.
    actor: filters.actor?.toLowerCase(),
    action: filters.action,
    subjectId,
    from: filters.from === undefined ? undefined : instant(filters.from).toISOString(),
    before: to?.toISOString(),
  };
}

/** The rows with what a reader needs: the details parsed, and each subject's email as it is now. */
async function entriesOf(db: Kysely<Database>, rows: AuditRow[]): Promise<AuditLogEntry[]> {
  const emails = await emailsOf(db, [...new Set(rows.flatMap((row) => (row.subject_id ? [row.subject_id] : [])))]);
  return rows.map((row) => ({
    id: row.id,
    createdAt: new Date(row.created_at).toISOString(),
    actorId: row.actor_id,
    actorEmail: row.actor_email,
    actorRole: row.actor_role as StaffRole,
    action: row.action as AuditAction,
    subjectId: row.subject_id,
    subjectEmail: row.subject_id ? (emails.get(row.subject_id) ?? null) : null,
    details: JSON.parse(row.details) as Record<string, unknown>,
  }));
}

/** `GET /admin/audit` (issue 47): one page of the staff actions, newest first, with how many match. */
export async function auditLog(deps: AuditDeps, query: AuditQuery): Promise<AuditPage> {
  const { skip, take, ...filters } = query;
  const page = await auditPageOf(deps.db, await selectionOf(deps, filters), { skip, take });
  return { data: await entriesOf(deps.db, page.rows), total: page.total };
}

/** The header row: the API's field names, as the users export's. */
export const AUDIT_EXPORT_HEADER = ['id', 'createdAt', 'actorId', 'actorEmail', 'actorRole', 'action', 'subjectId', 'subjectEmail', 'details'] as const;

/**
 * `GET /admin/audit/export` (issue 47): the filtered log as CSV, newest first, streamed a batch at a time with
 * the users export's escaping (server/modules/admin-users/csv-export.ts): RFC 4180, and a cell starting with
 * = + - @ (or a tab or carriage return) prefixed with ' so a spreadsheet shows it as text instead of running it.
 * An email or a detail is typed by whoever made the account, so it is never trusted as a formula.
 */
export async function auditCsv(deps: AuditDeps, filters: AuditFilters): Promise<Readable> {
  const selection = await selectionOf(deps, filters);
  async function* records() {
    yield [...AUDIT_EXPORT_HEADER];
    for await (const rows of auditBatches(deps.db, selection)) {
      for (const entry of await entriesOf(deps.db, rows)) {
        yield [entry.id, entry.createdAt, entry.actorId, entry.actorEmail, entry.actorRole, entry.action, entry.subjectId ?? '', entry.subjectEmail ?? '', JSON.stringify(entry.details)];
      }
    }
  }
  const csv = stringify({ record_delimiter: 'windows', escape_formulas: true });
  const source = Readable.from(records());
  source.on('error', (error) => csv.destroy(error));
  return source.pipe(csv);
}
