import { hasPermission, type Permission } from '../../../contract/permissions.js';
import type { BulkUserAction, BulkUsersRequest, BulkUsersResponse, Role } from '../../../contract/users.js';
import { AppError } from '../../errors.js';
import { recordStaffAction, type StaffActor } from '../activity/index.js';
import { changeRoles, deleteUser, type AdminDeps } from './admin.js';

type Skipped = BulkUsersResponse['skipped'][number];
const SKIPPABLE = new Set<string>(['CANNOT_MODIFY_SELF', 'LAST_ADMIN', 'USER_NOT_FOUND'] satisfies Skipped['messageKey'][]);

/** Issue 47: a bulk action needs `users.bulk` (the route's) and the permission of the action it repeats. */
const ACTION_PERMISSION: Record<BulkUserAction, Permission> = { delete: 'users.delete', 'grant-admin': 'users.roles', 'revoke-admin': 'users.roles' };

/**
 * `POST /users/bulk` (admin; issue 21): one role change or deletion for each selected user, through the
 * very functions the single-user actions use (./admin.ts), so the rules (not yourself, never the last
 * admin) and the activity log entries are theirs. Each user is its own transaction, one after the other:
 * a user the rules refuse is skipped with the reason and the others are still done, so demoting every
 * admin on a page leaves the acting admin and (when it comes to that) one last admin, and says so. The
 * audit log keeps each change, and the bulk action itself with its counts (issue 47).
 */
export async function bulkUsers(deps: AdminDeps, staff: StaffActor, staffRoles: readonly Role[], request: BulkUsersRequest): Promise<BulkUsersResponse> {
  if (!hasPermission(staffRoles, ACTION_PERMISSION[request.action])) throw new AppError('FORBIDDEN', 403);
  const done: string[] = [];
  const skipped: Skipped[] = [];
  for (const id of new Set(request.ids)) {
    try {
      if (request.action === 'delete') await deleteUser(deps, staff, id);
      // The admin role is granted or revoked; the account's other roles (support, analyst) stay.
      else await changeRoles(deps, staff, id, (current) => (request.action === 'grant-admin' ? [...current, 'admin'] : current.filter((role) => role !== 'admin')));
      done.push(id);
    } catch (error) {
      if (!(error instanceof AppError) || !SKIPPABLE.has(error.messageKey)) throw error;
      skipped.push({ id, messageKey: error.messageKey as Skipped['messageKey'] });
    }
  }
  await recordStaffAction(deps.db, {
    actor: staff,
    action: 'users.bulk',
    subjectId: null,
    details: { action: request.action, selected: new Set(request.ids).size, done: done.length, skipped: skipped.length },
    at: deps.clock.now(),
  });
  return { done, skipped };
}
