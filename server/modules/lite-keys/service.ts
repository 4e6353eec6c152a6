import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { Kysely } from 'kysely';
import type { Grant } from '../../../contract/licensing.js';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { type EventBus } from '../events/index.js';
import type { Dialect } from '../../db/index.js';
import { recordStaffAction, type StaffActor } from '../activity/index.js';
import { ingest } from '../analytics/index.js';
import { grantLiteLicence } from '../licensing/index.js';
import { allUnclaimedKeys, claimUnclaimedKey, insertNewKeys, keyExists, unclaimedKeysPage } from './repo.js';

export interface LiteKeyDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  clock: Clock;
  bus: EventBus;
}

/** A Shapelab Lite key as the stores hand them out: letters, digits and dashes. */
const KEY = /^[A-Z0-9][A-Z0-9-]{7,63}$/;
/** Store channels a key may come from (the admin menu's store analytics entries). */
const CHANNEL = /^[a-z0-9-]{1,32}$/;
const DEFAULT_CHANNEL = 'steam';

export function normaliseKey(key: string): string {
  return key.trim().toUpperCase();
}

/**
 * `POST /lite-keys/import` (admin): a CSV with a `key` column and an optional `channel` column (or a
 * single column of keys without a header). Keys already known are counted as duplicates, malformed
 * rows as invalid; the rest are inserted in one transaction.
 */
export async function importLiteKeys(deps: Pick<LiteKeyDeps, 'db' | 'clock'>, csv: string, staff: StaffActor): Promise<{ imported: number; duplicates: number; invalid: number }> {
  let records: string[][];
  try {
    records = parse(csv, { skip_empty_lines: true, trim: true, relax_column_count: true, bom: true }) as string[][];
  } catch (error) {
    throw new AppError('VALIDATION_FAILED', 400, { cause: error });
  }
  const header = records[0]?.map((cell) => cell.toLowerCase()) ?? [];
  const keyColumn = header.indexOf('key');
  const hasHeader = keyColumn >= 0;
  const channelColumn = header.indexOf('channel');
  const rows = hasHeader ? records.slice(1) : records;
  let invalid = 0;
  const wanted = new Map<string, string>();
  for (const record of rows) {
    const key = normaliseKey(record[hasHeader ? keyColumn : 0] ?? '');
    const channel = ((channelColumn >= 0 ? record[channelColumn] : undefined) ?? '').trim().toLowerCase() || DEFAULT_CHANNEL;
    if (!KEY.test(key) || !CHANNEL.test(channel)) invalid++;
    else wanted.set(key, channel);
  }
  const duplicatesInFile = rows.length - invalid - wanted.size;
  const now = deps.clock.now().toISOString();
  let imported = 0;
  await deps.db.transaction().execute(async (trx) => {
    const entries = [...wanted.entries()];
    for (let start = 0; start < entries.length; start += 500) {
      const chunk = entries.slice(start, start + 500);
      imported += await insertNewKeys(trx, chunk.map(([key, channel]) => ({ key, channel })), now);
    }
    // Issue 47: keys are licences to be; the audit log keeps who brought them in (how many, never the keys).
    await recordStaffAction(trx, { actor: staff, action: 'lite_keys.imported', subjectId: null, details: { imported, invalid }, at: now });
  });
  return { imported, duplicates: wanted.size - imported + duplicatesInFile, invalid };
}

/** The key prefix searched for: only letters, digits and dashes, so nothing in it reads as a LIKE wildcard. */
function prefixOf(search: string | undefined): string {
  return search ? normaliseKey(search).replace(/[^A-Z0-9-]/g, '') : '';
}

/** `GET /lite-keys` (admin): the unused keys, newest import first, searched by key prefix. */
export async function listUnusedKeys(
  db: Kysely<Database>,
  input: { search?: string | undefined; skip?: number | undefined; take?: number | undefined },
): Promise<{ data: { key: string; channel: string; importedAt: string }[]; total: number }> {
  const { rows, total } = await unclaimedKeysPage(db, { prefix: prefixOf(input.search), skip: input.skip ?? 0, take: input.take ?? 25 });
  return { data: rows.map((row) => ({ key: row.key, channel: row.channel, importedAt: new Date(row.imported_at).toISOString() })), total };
}

/** `GET /lite-keys/export` (admin): the unused keys as CSV; the audit log keeps who took them (issue 47). */
export async function exportUnusedKeys(deps: Pick<LiteKeyDeps, 'db' | 'clock'>, search: string | undefined, staff: StaffActor): Promise<string> {
  const rows = await allUnclaimedKeys(deps.db, prefixOf(search));
  await recordStaffAction(deps.db, { actor: staff, action: 'lite_keys.exported', subjectId: null, details: { search: search ?? null, keys: rows.length }, at: deps.clock.now() });
  return stringify(
    rows.map((row) => [row.key, row.channel, new Date(row.imported_at).toISOString()]),
    { header: true, columns: ['key', 'channel', 'importedAt'] },
  );
}

/**
 * Claims a Lite key for the user, once: the claim is a conditional update of the unclaimed key, so two
 * claims of one key cannot both succeed. The user gets a Lite licence from the key's store channel.
 */
export async function claimLiteKey(deps: LiteKeyDeps, userId: string, rawKey: string): Promise<Grant> {
  const key = normaliseKey(rawKey);
  const now = deps.clock.now().toISOString();
  const grant = await deps.db.transaction().execute(async (trx) => {
    const claimed = await claimUnclaimedKey(trx, { key, userId, claimedAt: now });
    if (!claimed) {
      const known = await keyExists(trx, key);
      throw new AppError(known ? 'LITE_KEY_CLAIMED' : 'LITE_KEY_INVALID', known ? 409 : 422);
    }
    await grantLiteLicence(trx, { userId, channel: claimed.channel, key, grantedAt: now });
    return { kind: 'lite' as const, channel: claimed.channel };
  });
  deps.bus.publish(userId, { type: 'licence', id: key });
  await ingest(deps, [{ kind: 'sale', userId, id: key, channel: grant.channel, at: new Date(now) }]);
  return grant;
}
