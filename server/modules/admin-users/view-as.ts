import type { ViewAsResponse } from '../../../contract/admin-actions.js';
import { isStaff } from '../../../contract/roles.js';
import { AppError } from '../../errors.js';
import type { StaffActor } from '../activity/index.js';
import type { Sessions } from '../auth/index.js';
import type { UsersRepo } from '../users/index.js';

/**
 * `POST /users/{id}/view-as` (issue 47): support sees what the customer sees, to answer them without asking
 * for screenshots, and changes nothing. The session is the customer's, read-only, at most 15 minutes, named
 * after the staff member in its row, its tokens, the customer's timeline and security page, and the audit log
 * (auth's Sessions.startView). Never of a staff account: their pages hold other people's data and powers a
 * view must not borrow (STAFF_NOT_VIEWABLE).
 */
export async function viewAs(deps: { users: UsersRepo; sessions: Sessions }, staff: StaffActor, userId: string): Promise<ViewAsResponse> {
  const customer = await deps.users.findById(userId);
  if (!customer) throw new AppError('USER_NOT_FOUND', 404);
  if (isStaff(customer.roles)) throw new AppError('STAFF_NOT_VIEWABLE', 403);
  return deps.sessions.startView(customer, staff);
}
