import type { BulkUsersRequest, BulkUsersResponse } from '../../../contract/users.js';
import { AppError } from '../../errors.js';
import { changeRoles, deleteUser, type AdminDeps } from './admin.js';

type Skipped = BulkUsersResponse['skipped'][number];
const SKIPPABLE = new Set<string>(['CANNOT_MODIFY_SELF', 'LAST_ADMIN', 'USER_NOT_FOUND'] satisfies Skipped['messageKey'][]);

/**
 * `POST /users/bulk` (admin; issue 21): one role change or deletion for each selected user, through the
 * very functions the single-user actions use (./admin.ts), so the rules (not yourself, never the last
 * admin) and the activity log entries are theirs. Each user is its own transaction, one after the other:
 * a user the rules refuse is skipped with the reason and the others are still done, so demoting every
 * admin on a page leaves the acting admin and (when it comes to that) one last admin, and says so.
 */
export async function bulkUsers(deps: AdminDeps, actorId: string, request: BulkUsersRequest): Promise<BulkUsersResponse> {
  const done: string[] = [];
  const skipped: Skipped[] = [];
  for (const id of new Set(request.ids)) {
    try {
      if (request.action === 'delete') await deleteUser(deps, actorId, id);
      else await changeRoles(deps, actorId, id, request.action === 'grant-admin' ? ['user', 'admin'] : ['user']);
      done.push(id);
    } catch (error) {
      if (!(error instanceof AppError) || !SKIPPABLE.has(error.messageKey)) throw error;
      skipped.push({ id, messageKey: error.messageKey as Skipped['messageKey'] });
    }
  }
  return { done, skipped };
}
