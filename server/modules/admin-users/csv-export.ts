import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { ExportUsersQuery } from '../../../contract/users.js';
import { exportBatches, type DirectoryDb, type ExportRow } from '../users/index.js';

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
 * `GET /users/export` (admin; issue 21): the CSV of the grid's list, streamed: batches are read only as
 * fast as the client takes the text (the stream's back pressure), so memory stays flat at any size.
 * RFC 4180 with a header row; a cell starting with = + - @ (or a tab or carriage return) is prefixed
 * with ' so a spreadsheet shows it as text instead of running it as a formula (CSV injection).
 */
export function usersCsv(deps: DirectoryDb, query: ExportUsersQuery): Readable {
  async function* records() {
    yield [...EXPORT_HEADER];
    for await (const rows of exportBatches(deps, query)) for (const row of rows) yield toRecord(row);
  }
  const csv = stringify({ record_delimiter: 'windows', escape_formulas: true });
  const source = Readable.from(records());
  source.on('error', (error) => csv.destroy(error));
  return source.pipe(csv);
}
