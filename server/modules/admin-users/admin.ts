import type { Kysely } from 'kysely';
import type { ActivityEntry, ActivityPage, ActivityQuery } from '../../../contract/activity.js';
import { hasPermission } from '../../../contract/permissions.js';
import type { AdminUser, AuditEntry, Role } from '../../../contract/users.js';
import type { Clock } from '../../clock.js';
import type { Dialect } from '../../db/index.js';
import { transactionRetried } from '../../db/retry.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { activityOf, activityOfKinds, forgetActivity, recordActivity, type LoggedEntry, type StaffActor } from '../activity/index.js';
import { type Sessions } from '../auth/index.js';
import { seatCountOf } from '../devices/index.js';
import { chargebackMarks } from '../billing/index.js';
import { type EventBus } from '../events/index.js';
import { accountExists, adminUserOf, deleteAccountRow, type DirectoryUser, emailsOf, lockOtherAdmins, registeredAt, replaceRoles, rolesIn } from '../users/index.js';

export interface AdminDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  clock: Clock;
  /** Told of role changes and deletions, so open event streams follow at once. */
  bus: EventBus;
  /** Issue 47: a staff member who may no longer view accounts as their owners loses the views open. */
  sessions: Pick<Sessions, 'endViewsBy'>;
}

/**
 * `PATCH /users/{id}` (admin): sets the user's roles ('user' is always kept). An admin cannot remove
 * their own admin role, and the last admin cannot lose it. The user's next request sees the change:
 * the guard reads roles from the database on every request. Issue 47: the staff roles `support` and
 * `analyst` are set the same way; one who can no longer view accounts as their owners loses the views open.
 * `requested` is the new set, or how it follows from the roles held (a bulk action adds or removes one).
 */
export async function changeRoles(deps: AdminDeps, staff: StaffActor, targetId: string, requested: Role[] | ((current: Role[]) => Role[])): Promise<AdminUser> {
  let roles: Role[] = [];
  const changed = await deps.db.transaction().execute(async (trx) => {
    const current = await rolesIn(trx, targetId);
    if (!(await accountExists(trx, targetId))) throw new AppError('USER_NOT_FOUND', 404);
    // A change relative to the roles held (the bulk actions' grant and revoke) reads them in the transaction.
    roles = [...new Set<Role>(['user', ...(typeof requested === 'function' ? requested(current) : requested)])].sort();
    const losesAdmin = current.includes('admin') && !roles.includes('admin');
    if (losesAdmin && targetId === staff.id) throw new AppError('CANNOT_MODIFY_SELF', 409);
    if (losesAdmin && (await lockOtherAdmins(trx, deps.dialect, targetId)) === 0) throw new AppError('LAST_ADMIN', 409);
    if (current.join() === roles.join()) return null;
    await replaceRoles(trx, targetId, roles);
    await recordActivity(trx, { userId: targetId, staff, kind: 'roles.changed', details: { from: current, to: roles }, at: deps.clock.now() });
    return current;
  });
  if (changed !== null && hasPermission(changed, 'users.viewAs') && !hasPermission(roles, 'users.viewAs')) await deps.sessions.endViewsBy(targetId);
  // A demoted admin's open streams stop hearing admin events now, a promoted user's start.
  deps.bus.announce({ kind: 'roles-changed', userId: targetId, roles });
  return (await withChargebackMarks(deps.db, [await adminUserOf(deps, targetId)]))[0] as AdminUser;
}

/** Grid rows with their chargeback marks: the accounts a bank took a payment back from (issue 46 item 9), one query for the page. */
export async function withChargebackMarks(db: Kysely<Database>, users: DirectoryUser[]): Promise<AdminUser[]> {
  const chargedBack = await chargebackMarks(db, users.map((user) => user.id));
  return users.map((user) => ({ ...user, chargeback: chargedBack.has(user.id) }));
}

/**
 * `DELETE /users/{id}` (admin): the account and everything personal goes (sessions, device seats and
 * their tokens, social links, verifications, roles: foreign keys cascade); payments, subscriptions and
 * licences stay for the books, detached (their user_id set to null). An admin cannot delete themselves,
 * nor the last admin. The audit entry keeps no personal data of the deleted user.
 */
export async function deleteUser(deps: AdminDeps, staff: StaffActor, targetId: string): Promise<{ id: string }> {
  if (targetId === staff.id) throw new AppError('CANNOT_MODIFY_SELF', 409);
  // As an account's own deletion (deletion.ts): run again when PostgreSQL fails it to break a deadlock.
  await transactionRetried(deps.db, async (trx) => {
    const roles = await rolesIn(trx, targetId);
    const createdAt = await registeredAt(trx, targetId);
    if (createdAt === undefined) throw new AppError('USER_NOT_FOUND', 404);
    if (roles.includes('admin') && (await lockOtherAdmins(trx, deps.dialect, targetId)) === 0) throw new AppError('LAST_ADMIN', 409);
    const seats = await seatCountOf(trx, targetId);
    await deleteAccountRow(trx, targetId);
    await forgetActivity(trx, targetId);
    // Issue 47: the audit log keeps the deletion (by the account's id) after the timeline has gone with it.
    await recordActivity(trx, {
      userId: targetId,
      staff,
      kind: 'user.deleted',
      details: { roles, registeredAt: new Date(createdAt).toISOString(), seatsReleased: seats },
      at: deps.clock.now(),
    });
  });
  deps.bus.announce({ kind: 'user-deleted', userId: targetId });
  return { id: targetId };
}

/**
 * The kinds the admin history dialog shows (`GET /users/{id}/audit`): changes made by admins and by the portal's
 * purchase rules, and (issue 47) staff's views of the account as its owner.
 */
const AUDIT_KINDS = ['roles.changed', 'user.deleted', 'account.deleted', 'purchase.duplicate_undone', 'purchase.refunded', 'two_factor.reset', 'account.viewed'] as const satisfies readonly AuditEntry['action'][];

/** `GET /users/{id}/audit` (admin): the admin changes made to a user, newest first, with who made them. */
export async function auditOf(db: Kysely<Database>, targetId: string): Promise<AuditEntry[]> {
  const entries = await withActorEmails(db, await activityOfKinds(db, targetId, AUDIT_KINDS));
  return entries.map(({ kind, ...entry }) => ({ ...entry, action: kind as AuditEntry['action'] }));
}

/** `GET /users/{id}/activity` (admin): one page of the account's timeline (404 for an unknown account). */
export async function timelineOf(deps: Pick<AdminDeps, 'db'>, userId: string, query: ActivityQuery): Promise<ActivityPage> {
  await adminUserOf(deps, userId);
  const page = await activityOf(deps.db, userId, query);
  return { data: await withActorEmails(deps.db, page.data), total: page.total };
}

/** The log names the acting admins by id; the page shows their email (null once that account is gone). */
async function withActorEmails(db: Kysely<Database>, entries: LoggedEntry[]): Promise<ActivityEntry[]> {
  const emails = await emailsOf(db, [...new Set(entries.flatMap((entry) => (entry.actorId ? [entry.actorId] : [])))]);
  return entries.map((entry) => ({ ...entry, actorEmail: entry.actorId ? (emails.get(entry.actorId) ?? null) : null }));
}
