import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { sql, type Selectable } from 'kysely';
import type { ExportUsersQuery } from '../../../contract/users.js';
import type { UsersTable } from '../../db/schema.js';
import { inSegments, orderOf, searchMatchIds, type AdminDeps } from './admin.js';
import { segmentsOf } from './filters.js';

/** Rows read per query: large enough that a million users is a thousand short queries, small enough to hold. */
export const EXPORT_BATCH = 1000;

/** Sort columns that may be NULL: their NULLs come first ascending and last descending, as in the grid. */
const NULLABLE = new Set(['first_name', 'last_name', 'email_verified_at', 'downloaded_at', 'last_launched_at']);

const EXPORT_COLUMNS = [
  'id',
  'email',
  'first_name',
  'last_name',
  'email_verified_at',
  'password_hash',
  'google_connected',
  'facebook_connected',
  'newsletter',
  'is_admin',
  'plan',
  'created_at',
  'downloaded_at',
  'last_launched_at',
] as const;
type ExportRow = Pick<Selectable<UsersTable>, (typeof EXPORT_COLUMNS)[number]>;

/** The header row: the API's field names, so a spreadsheet and a script read the file alike. */
export const EXPORT_HEADER = [
  'id',
  'email',
  'firstName',
  'lastName',
  'emailVerified',
  'passwordSignIn',
  'googleConnected',
  'facebookConnected',
  'newsletter',
  'isAdmin',
  'plan',
  'createdAt',
  'downloadedAt',
  'lastLaunchedAt',
] as const;

const iso = (value: string | null) => (value ? new Date(value).toISOString() : '');
const yes = (value: number | string) => (Number(value) === 1 ? 'true' : 'false');

function toRecord(row: ExportRow): string[] {
  return [
    row.id,
    row.email,
    row.first_name ?? '',
    row.last_name ?? '',
    row.email_verified_at === null ? 'false' : 'true',
    // Only whether there is one: the hash never leaves the database.
    row.password_hash === null ? 'false' : 'true',
    yes(row.google_connected),
    yes(row.facebook_connected),
    yes(row.newsletter),
    yes(row.is_admin),
    row.plan,
    iso(row.created_at),
    iso(row.downloaded_at),
    iso(row.last_launched_at),
  ];
}

/**
 * Every user the grid's search and filters select, in the grid's order, a batch at a time. Each batch
 * continues after the last row of the one before (keyset: column, then id), so every query is a short
 * index walk wherever it starts, and holds no connection between batches. A nullable column is walked
 * in two parts, its NULLs and its values, each a plain range of the (column, id) index.
 */
export async function* exportBatches(deps: Pick<AdminDeps, 'db' | 'dialect'>, query: ExportUsersQuery, batch = EXPORT_BATCH): AsyncGenerator<ExportRow[]> {
  const { db, dialect } = deps;
  const segments = segmentsOf(query);
  if (segments?.length === 0) return;
  const matches = searchMatchIds(deps, query);
  const { column, desc } = orderOf(query);
  const ref = sql.ref(column);
  const parts: ('nulls' | 'values')[] = !NULLABLE.has(column) ? ['values'] : desc ? ['values', 'nulls'] : ['nulls', 'values'];
  for (const part of parts) {
    let after: { value: unknown; id: string } | null = null;
    for (;;) {
      let rows = db.selectFrom('users').select(EXPORT_COLUMNS).limit(batch);
      rows = matches ? rows.where('id', 'in', matches) : inSegments(rows, segments, dialect, true);
      if (part === 'nulls') {
        rows = rows.where(ref, 'is', null).orderBy('id', desc ? 'desc' : 'asc');
        if (after) rows = rows.where('id', desc ? '<' : '>', after.id);
      } else {
        if (NULLABLE.has(column)) rows = rows.where(ref, 'is not', null);
        if (after) rows = rows.where(sql<boolean>`(${ref}, id) ${sql.raw(desc ? '<' : '>')} (${after.value}, ${after.id})`);
        // PostgreSQL's sort indexes put NULLs first: the same order lets it walk them.
        const order = dialect === 'postgres' ? sql`${ref} ${sql.raw(desc ? 'desc nulls last' : 'asc nulls first')}` : sql`${ref} ${sql.raw(desc ? 'desc' : 'asc')}`;
        rows = rows.orderBy(order).orderBy('id', desc ? 'desc' : 'asc');
      }
      const found = await rows.execute();
      if (found.length > 0) yield found;
      const last = found[found.length - 1];
      if (!last || found.length < batch) break;
      after = { value: (last as Record<string, unknown>)[column], id: last.id };
    }
  }
}

/**
 * `GET /users/export` (admin; issue 21): the CSV of the grid's list, streamed: batches are read only as
 * fast as the client takes the text (the stream's back pressure), so memory stays flat at any size.
 * RFC 4180 with a header row; a cell starting with = + - @ (or a tab or carriage return) is prefixed
 * with ' so a spreadsheet shows it as text instead of running it as a formula (CSV injection).
 */
export function usersCsv(deps: Pick<AdminDeps, 'db' | 'dialect'>, query: ExportUsersQuery): Readable {
  async function* records() {
    yield [...EXPORT_HEADER];
    for await (const rows of exportBatches(deps, query)) for (const row of rows) yield toRecord(row);
  }
  const csv = stringify({ record_delimiter: 'windows', escape_formulas: true });
  const source = Readable.from(records());
  source.on('error', (error) => csv.destroy(error));
  return source.pipe(csv);
}
