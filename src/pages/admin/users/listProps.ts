import type { GridRowSelectionModel } from '@mui/x-data-grid';
import type { Dispatch, SetStateAction } from 'react';
import type { AdminUser } from '../../../../contract/users.js';
import type { UserAction } from './rowActions.js';
import type { StaffPowers } from './useStaffPowers.js';

/** What the page hands either form of the users list: the grid on a wide screen, the cards on a phone. */
export interface UsersListProps {
  /** What the list says when it shows nobody. */
  noRowsLabel: string;
  selection: GridRowSelectionModel;
  /** The page's state setter: the grid hands it a selection, a card a change to the current one. */
  onSelection: Dispatch<SetStateAction<GridRowSelectionModel>>;
  /** The signed-in admin: their own row cannot be demoted or deleted. */
  selfId: string | undefined;
  onAction: (action: UserAction, user: AdminUser) => void;
  userPath: (user: Pick<AdminUser, 'id'>) => string;
  /** Issue 47: what the signed-in staff member may do; a row offers only that, and selection needs the bulk actions. */
  allowed: StaffPowers;
}
