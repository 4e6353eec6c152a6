import { sql, type Expression, type ExpressionBuilder, type Kysely, type Selectable, type SelectQueryBuilder, type SqlBool, type Transaction } from 'kysely';
import type { AdminUser, AuditEntry, ExportUsersQuery, ListUsersQuery, ListUsersResponse, Role, UserPlan, UserSortField } from '../../../contract/users.js';
import type { Clock } from '../../clock.js';
import { type EventBus } from '../events/index.js';
import type { Dialect } from '../../db/index.js';
import type { Database, UsersTable } from '../../db/schema.js';
import { transactionRetried } from '../../db/retry.js';
import { AppError } from '../../errors.js';
import { activityOfKinds, forgetActivity, recordActivity } from '../activity/index.js';
import { chargebackMarks } from '../billing/index.js';
import { segmentsOf } from './filters.js';

export interface AdminDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  clock: Clock;
  /** Told of role changes and deletions, so open event streams follow at once. */
  bus: EventBus;
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

/** Rows as the grid shows them, with their roles (one query for the page). */
async function toAdminUsers(db: Kysely<Database>, rows: Row[]): Promise<AdminUser[]> {
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
  // Issue 46 item 9: the accounts a bank took a payment back from, marked for support.
  const chargedBack = await chargebackMarks(db, rows.map((row) => row.id));
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
    chargeback: chargedBack.has(row.id),
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
 * Only the users in `segments` (the grid's filters, ./filters.ts), or everyone when null. `walk` writes the
 * condition as `+segment` on SQLite, which keeps SQLite from answering it from the segment index: the
 * query then walks the index of its order (each carries the segment since migration 0017) and stops at
 * the page, instead of reading and sorting every match.
 */
export function inSegments<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>, segments: number[] | null, dialect: Dialect, walk = false) {
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
export function orderOf(query: ExportUsersQuery): { column: string; desc: boolean } {
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
export async function listUsers(deps: AdminDeps, query: ListUsersQuery): Promise<ListUsersResponse> {
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
export function searchMatchIds(deps: Pick<AdminDeps, 'db' | 'dialect'>, query: ExportUsersQuery) {
  if (!query.search) return null;
  return deps.db.selectFrom(searchMatches(deps.db, deps.dialect, query.search, segmentsOf(query)).as('s')).select('s.id');
}

/** One row of the grid, by id (404 when there is no such user). */
export async function adminUserOf(deps: Pick<AdminDeps, 'db'>, id: string): Promise<AdminUser> {
  const row = await deps.db.selectFrom('users').select(ROW_COLUMNS).where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('USER_NOT_FOUND', 404);
  const [user] = await toAdminUsers(deps.db, [row]);
  return user as AdminUser;
}

/**
 * How many admins remain besides `except`, with the admin rows locked on PostgreSQL (SQLite runs one
 * write transaction at a time), so two admins demoting each other at once cannot leave none.
 */
async function otherAdmins(trx: Transaction<Database>, dialect: Dialect, except: string): Promise<number> {
  let query = trx.selectFrom('user_roles').select('user_id').where('role', '=', 'admin');
  if (dialect === 'postgres') query = query.forUpdate();
  return (await query.execute()).filter((row) => row.user_id !== except).length;
}

/**
 * `PATCH /users/{id}` (admin): sets the user's roles ('user' is always kept). An admin cannot remove
 * their own admin role, and the last admin cannot lose it. The user's next request sees the change:
 * the guard reads roles from the database on every request.
 */
export async function changeRoles(deps: AdminDeps, actorId: string, targetId: string, requested: Role[]): Promise<AdminUser> {
  const roles = [...new Set<Role>(['user', ...requested])].sort();
  await deps.db.transaction().execute(async (trx) => {
    const current = (await trx.selectFrom('user_roles').select('role').where('user_id', '=', targetId).execute()).map((row) => row.role as Role).sort();
    const exists = await trx.selectFrom('users').select('id').where('id', '=', targetId).executeTakeFirst();
    if (!exists) throw new AppError('USER_NOT_FOUND', 404);
    const losesAdmin = current.includes('admin') && !roles.includes('admin');
    if (losesAdmin && targetId === actorId) throw new AppError('CANNOT_MODIFY_SELF', 409);
    if (losesAdmin && (await otherAdmins(trx, deps.dialect, targetId)) === 0) throw new AppError('LAST_ADMIN', 409);
    if (current.join() === roles.join()) return;
    await trx.deleteFrom('user_roles').where('user_id', '=', targetId).execute();
    await trx
      .insertInto('user_roles')
      .values(roles.map((role) => ({ user_id: targetId, role })))
      .execute();
    await recordActivity(trx, { userId: targetId, actorId, kind: 'roles.changed', details: { from: current, to: roles }, at: deps.clock.now() });
  });
  // A demoted admin's open streams stop hearing admin events now, a promoted user's start.
  deps.bus.announce({ kind: 'roles-changed', userId: targetId, roles });
  return adminUserOf(deps, targetId);
}

/**
 * `DELETE /users/{id}` (admin): the account and everything personal goes (sessions, device seats and
 * their tokens, social links, verifications, roles: foreign keys cascade); payments, subscriptions and
 * licences stay for the books, detached (their user_id set to null). An admin cannot delete themselves,
 * nor the last admin. The audit entry keeps no personal data of the deleted user.
 */
export async function deleteUser(deps: AdminDeps, actorId: string, targetId: string): Promise<{ id: string }> {
  if (targetId === actorId) throw new AppError('CANNOT_MODIFY_SELF', 409);
  // As an account's own deletion (deletion.ts): run again when PostgreSQL fails it to break a deadlock.
  await transactionRetried(deps.db, async (trx) => {
    const roles = (await trx.selectFrom('user_roles').select('role').where('user_id', '=', targetId).execute()).map((row) => row.role);
    const user = await trx.selectFrom('users').select(['id', 'created_at']).where('id', '=', targetId).executeTakeFirst();
    if (!user) throw new AppError('USER_NOT_FOUND', 404);
    if (roles.includes('admin') && (await otherAdmins(trx, deps.dialect, targetId)) === 0) throw new AppError('LAST_ADMIN', 409);
    const seats = await trx.selectFrom('seats').select((eb) => eb.fn.countAll<number | string>().as('n')).where('user_id', '=', targetId).executeTakeFirstOrThrow();
    await trx.deleteFrom('users').where('id', '=', targetId).execute();
    await forgetActivity(trx, targetId);
    await recordActivity(trx, {
      userId: targetId,
      actorId,
      kind: 'user.deleted',
      details: { roles: roles.sort(), registeredAt: new Date(user.created_at).toISOString(), seatsReleased: Number(seats.n) },
      at: deps.clock.now(),
    });
  });
  deps.bus.announce({ kind: 'user-deleted', userId: targetId });
  return { id: targetId };
}

/** The kinds the admin history dialog shows (`GET /users/{id}/audit`): changes made by admins and by the portal's purchase rules. */
const AUDIT_KINDS = ['roles.changed', 'user.deleted', 'account.deleted', 'purchase.duplicate_undone', 'purchase.refunded', 'two_factor.reset'] as const satisfies readonly AuditEntry['action'][];

/** `GET /users/{id}/audit` (admin): the admin changes made to a user, newest first, with who made them. */
export async function auditOf(db: Kysely<Database>, targetId: string): Promise<AuditEntry[]> {
  const entries = await activityOfKinds(db, targetId, AUDIT_KINDS);
  return entries.map(({ kind, ...entry }) => ({ ...entry, action: kind as AuditEntry['action'] }));
}
