import { sql, type Expression, type ExpressionBuilder, type Kysely, type Selectable, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { AdminUser, ExportUsersQuery, ListUsersQuery, Role, UserPlan, UserSortField } from '../../../contract/users.js';
import type { Dialect } from '../../db/index.js';
import type { Database, UsersTable } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { segmentsOf } from './segments.js';

/**
 * The directory of accounts as staff read it (the admin users grid, its CSV, one account's row): pages in
 * any order with a prefix search and the grid's filters, planned for the indexes migrations 0009, 0010,
 * 0017 and 0018 built for them. The admin-users module states the rules around these reads; the
 * statements live here, with every other statement on `users` and `user_roles`.
 */
export interface DirectoryDb {
  db: Kysely<Database>;
  dialect: Dialect;
}

/** Grid column -> users column; only these names ever reach ORDER BY. Each has an index (column, id). */
const SORT_COLUMNS: Record<UserSortField, string> = {
  firstName: 'first_name',
  lastName: 'last_name',
  email: 'email',
  emailVerified: 'email_verified_at',
  googleConnected: 'google_connected',
  facebookConnected: 'facebook_connected',
  newsletter: 'newsletter',
  createdAt: 'created_at',
  downloadedAt: 'downloaded_at',
  lastLaunchedAt: 'last_launched_at',
  isAdmin: 'is_admin',
};

const iso = (value: string | null) => (value ? new Date(value).toISOString() : null);

const ROW_COLUMNS = [
  'id',
  'email',
  'first_name',
  'last_name',
  'email_verified_at',
  'google_connected',
  'facebook_connected',
  'newsletter',
  'created_at',
  'downloaded_at',
  'last_launched_at',
  'is_admin',
  'plan',
] as const;

type Row = Pick<Selectable<UsersTable>, (typeof ROW_COLUMNS)[number]>;

/** A grid row as the users module knows it: the admin area adds what other modules know (the chargeback mark). */
export type DirectoryUser = Omit<AdminUser, 'chargeback'>;

/** Rows as the grid shows them, with their roles (one query for the page). */
async function toAdminUsers(db: Kysely<Database>, rows: Row[]): Promise<DirectoryUser[]> {
  const roles = rows.length
    ? await db
        .selectFrom('user_roles')
        .select(['user_id', 'role'])
        .where(
          'user_id',
          'in',
          rows.map((row) => row.id),
        )
        .execute()
    : [];
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    roles: roles
      .filter((r) => r.user_id === row.id)
      .map((r) => r.role as Role)
      .sort(),
    emailVerified: row.email_verified_at !== null,
    googleConnected: Number(row.google_connected) === 1,
    facebookConnected: Number(row.facebook_connected) === 1,
    newsletter: Number(row.newsletter) === 1,
    createdAt: new Date(row.created_at).toISOString(),
    downloadedAt: iso(row.downloaded_at),
    lastLaunchedAt: iso(row.last_launched_at),
    isAdmin: Number(row.is_admin) === 1,
    plan: row.plan as UserPlan,
  }));
}

/** The smallest string greater than every string starting with `prefix` (byte order, as SQLite compares). */
function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCodePoint((prefix.codePointAt(prefix.length - 1) ?? 0) + 1);
}

/**
 * Name or email starting with `term`, ignoring case, one condition per search index, in a form each
 * dialect answers from that index: SQLite compares ranges on lower(x); PostgreSQL uses LIKE 'term%' on
 * text_pattern_ops indexes.
 */
function searchConditions(dialect: Dialect, term: string) {
  const q = term.toLowerCase();
  const pattern = `${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const end = prefixEnd(q);
  const columns = [sql<string>`email`, sql<string>`lower(first_name)`, sql<string>`lower(last_name)`];
  return columns.map(
    (column) =>
      (eb: ExpressionBuilder<Database, 'users'>): Expression<SqlBool> =>
        dialect === 'postgres' ? eb(column, 'like', pattern) : eb.and([eb(column, '>=', q), eb(column, '<', end)]),
  );
}

/**
 * Only the users in `segments` (the grid's filters, ./segments.ts), or everyone when null. `walk` writes the
 * condition as `+segment` on SQLite, which keeps SQLite from answering it from the segment index: the
 * query then walks the index of its order (each carries the segment since migration 0017) and stops at
 * the page, instead of reading and sorting every match.
 */
function inSegments<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>, segments: number[] | null, dialect: Dialect, walk = false) {
  if (!segments) return query;
  const column = walk && dialect === 'sqlite' ? sql<number>`+segment` : sql<number>`segment`;
  return query.where(column, 'in', segments);
}

/** The users a search matches (within the filters' segments), as (id, created_at): a UNION of one index scan per searched column. */
function searchMatches(db: Kysely<Database>, dialect: Dialect, term: string, segments: number[] | null) {
  const [email, firstName, lastName] = searchConditions(dialect, term).map((condition) =>
    inSegments(db.selectFrom('users').select(['id', 'created_at']).where(condition), segments, dialect),
  );
  if (!email || !firstName || !lastName) throw new Error('three search conditions');
  return email.union(firstName).union(lastName);
}

/** skip/take only when both are given (spec section 7). */
function window<DB, TB extends keyof DB, O>(page: SelectQueryBuilder<DB, TB, O>, query: ListUsersQuery) {
  return query.skip !== undefined && query.take !== undefined ? page.limit(query.take).offset(query.skip) : page;
}

/** The order of a list or export: the users column and direction (newest first when no sort is asked for). */
function orderOf(query: ExportUsersQuery): { column: string; desc: boolean } {
  const sortField = query.sortField && query.sortDirection ? query.sortField : null;
  if (sortField === null) return { column: 'created_at', desc: true };
  return { column: SORT_COLUMNS[sortField], desc: query.sortDirection?.toLowerCase() === 'desc' };
}

/**
 * How many users the segments hold (everyone when null), summed from the counts migration 0018's
 * triggers keep: at most 256 rows whatever the number of users, where counting the matches of a broad
 * filter reads up to every entry of the segment index. As exact as a count(*) at the same moment.
 */
async function usersIn(db: Kysely<Database>, segments: number[] | null): Promise<number> {
  let query = db.selectFrom('user_segment_counts').select((eb) => eb.fn.sum<number | string | null>('users').as('n'));
  if (segments) query = query.where('segment', 'in', segments);
  const { n } = await query.executeTakeFirstOrThrow();
  return Number(n ?? 0);
}

/**
 * SQLite only (PostgreSQL's planner weighs this itself from its statistics): is a filtered page cheaper
 * found by walking the order's index until the page is passed (about (skip + take) / share of matches
 * entries, index only), or by reading every match from the segment index and sorting them (cheap for
 * the creation date the segment index carries, a row read per match for any other order)?
 */
async function walkOrderIndex(db: Kysely<Database>, query: ListUsersQuery, column: string, matching: number): Promise<boolean> {
  if (matching === 0) return false;
  const everyone = await usersIn(db, null);
  const walked = ((query.skip ?? 0) + (query.take ?? matching)) * (everyone / matching);
  const sorted = matching * (column === 'created_at' ? 1 : 8);
  return walked <= sorted;
}

/**
 * `GET /users` (admin; spec section 7): one page in the requested order (ties by id, so pages never
 * overlap), the total, an optional prefix search and the grid's filters (issue 21). NULLs come first
 * ascending on both dialects.
 */
export async function listUsers(deps: DirectoryDb, query: ListUsersQuery): Promise<{ total: number; data: DirectoryUser[] }> {
  const { db, dialect } = deps;
  const segments = segmentsOf(query);
  if (segments?.length === 0) return { total: 0, data: [] };
  const matches = query.search ? searchMatches(db, dialect, query.search, segments) : null;
  // Every user (of the filters), or the matches of the search; a plain subquery both dialects flatten into the scan.
  const candidates = () => (matches ?? inSegments(db.selectFrom('users').select(['id', 'created_at']), segments, dialect)).as('m');
  // A search's matches are counted; without one the total is the filters' segments' counts (usersIn).
  const countTotal = async () => {
    if (!matches) return usersIn(db, segments);
    const { n } = await db.selectFrom(candidates()).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
    return Number(n);
  };
  const { column: orderColumn, desc } = orderOf(query);
  // SQLite answers one statement at a time anyway: its filtered pages are planned from the count.
  const counted = segments && !matches && dialect === 'sqlite' ? await countTotal() : null;
  const walk = counted === null || (await walkOrderIndex(db, query, orderColumn, counted));
  // The page is found from an index alone (ids only, so a deep offset never reads the rows it skips),
  // then its rows are read by id: a "deferred join" that keeps skip 500,000 cheap on PostgreSQL.
  let page;
  if (orderColumn === 'created_at' && (matches || !segments)) {
    // Newest first by default; a search orders its matches by the creation date its indexes carry.
    page = window(
      db
        .selectFrom(candidates())
        .select('id')
        .orderBy('created_at', desc ? 'desc' : 'asc')
        .orderBy('id', desc ? 'desc' : 'asc'),
      query,
    );
  } else {
    const ref = sql.ref(orderColumn);
    // `+column` keeps SQLite from ordering by the column's index: it reads the matches from the segment index.
    const column = walk || dialect === 'postgres' ? ref : sql`+${ref}`;
    let sorted = db.selectFrom('users').select('id');
    if (matches) sorted = sorted.where('id', 'in', db.selectFrom(matches.as('s')).select('s.id'));
    else sorted = inSegments(sorted, segments, dialect, walk);
    if (dialect === 'postgres') sorted = sorted.orderBy(desc ? sql`${column} desc nulls last` : sql`${column} asc nulls first`);
    else sorted = sorted.orderBy(column, desc ? 'desc' : 'asc');
    page = window(sorted.orderBy(walk || dialect === 'postgres' ? sql.ref('id') : sql`+id`, desc ? 'desc' : 'asc'), query);
  }
  const [ids, total] = await Promise.all([page.execute(), counted ?? countTotal()]);
  const rows = ids.length
    ? await db
        .selectFrom('users')
        .select(ROW_COLUMNS)
        .where(
          'id',
          'in',
          ids.map((row) => row.id),
        )
        .execute()
    : [];
  const byId = new Map(rows.map((row) => [row.id, row]));
  const ordered = ids.flatMap((row) => {
    const found = byId.get(row.id);
    return found ? [found] : [];
  });
  return { total, data: await toAdminUsers(db, ordered) };
}

/** The search's matches within the filters, for the export's walk (null when there is no search). */
function searchMatchIds(deps: DirectoryDb, query: ExportUsersQuery) {
  if (!query.search) return null;
  return deps.db.selectFrom(searchMatches(deps.db, deps.dialect, query.search, segmentsOf(query)).as('s')).select('s.id');
}

/** One row of the grid, by id (404 when there is no such user). */
export async function adminUserOf(deps: Pick<DirectoryDb, 'db'>, id: string): Promise<DirectoryUser> {
  const row = await deps.db.selectFrom('users').select(ROW_COLUMNS).where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('USER_NOT_FOUND', 404);
  const [user] = await toAdminUsers(deps.db, [row]);
  if (!user) throw new AppError('USER_NOT_FOUND', 404);
  return user;
}


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
export type ExportRow = Pick<Selectable<UsersTable>, (typeof EXPORT_COLUMNS)[number]>;

/**
 * Every user the grid's search and filters select, in the grid's order, a batch at a time. Each batch
 * continues after the last row of the one before (keyset: column, then id), so every query is a short
 * index walk wherever it starts, and holds no connection between batches. A nullable column is walked
 * in two parts, its NULLs and its values, each a plain range of the (column, id) index.
 */
export async function* exportBatches(deps: DirectoryDb, query: ExportUsersQuery, batch = EXPORT_BATCH): AsyncGenerator<ExportRow[]> {
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
 * What support sees of one account beyond its grid row (the admin user page): contact details, how it
 * signs in, whether it has a second factor. Undefined when there is no such account.
 */
export async function supportProfileOf(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('users')
    .select(['phone', 'country', 'language', 'email_verified_at', 'signup_source', 'password_hash', 'two_factor_enabled'])
    .where('id', '=', userId)
    .executeTakeFirst();
}
