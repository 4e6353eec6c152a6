import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { STAFF_ROLES, type Role, type StaffRole } from '../../../../contract/roles.js';
import { ConfirmDialog } from '../../../components/ConfirmDialog.js';

export interface RolesDialogProps {
  /** The account whose roles change; null closes the dialog. */
  user: { id: string; email: string; roles: readonly Role[] } | null;
  /** The signed-in admin: their own admin role is not offered for removal (the server refuses it too). */
  selfId: string | undefined;
  busy?: boolean;
  onCancel: () => void;
  onConfirm: (roles: Role[]) => void;
}

/**
 * Issue 47: an account's staff roles, changed by an admin after seeing what each gives: admin (everything),
 * support (customers' accounts, without money, roles, deletions, exports) and analyst (the figures only).
 * `user` is everyone's and stays. The server applies the last-admin and not-yourself rules.
 */
export function RolesDialog({ user, selfId, busy = false, onCancel, onConfirm }: RolesDialogProps) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<{ id: string; roles: StaffRole[] } | null>(null);
  const held = user ? STAFF_ROLES.filter((role) => user.roles.includes(role)) : [];
  // The choice belongs to the account the dialog was opened for.
  const roles = chosen && user && chosen.id === user.id ? chosen.roles : held;
  const toggle = (role: StaffRole, on: boolean) => {
    if (!user) return;
    setChosen({ id: user.id, roles: STAFF_ROLES.filter((candidate) => (candidate === role ? on : roles.includes(candidate))) });
  };
  const unchanged = roles.join() === held.join();
  return (
    <ConfirmDialog
      open={user !== null}
      title={user ? t('pages.users.rolesDialog.title', { email: user.email }) : ''}
      confirmLabel={t('pages.users.rolesDialog.confirm')}
      cancelLabel={t('pages.users.cancel')}
      busy={busy || unchanged}
      onCancel={() => {
        setChosen(null);
        onCancel();
      }}
      onConfirm={() => {
        setChosen(null);
        onConfirm(['user', ...roles]);
      }}
    >
      <Typography sx={{ mb: 1 }}>{t('pages.users.rolesDialog.text')}</Typography>
      <FormGroup>
        {STAFF_ROLES.map((role) => {
          const ownAdmin = role === 'admin' && user?.id === selfId && held.includes('admin');
          return (
            <FormControlLabel
              key={role}
              disabled={ownAdmin}
              control={<Checkbox checked={roles.includes(role)} onChange={(event) => toggle(role, event.target.checked)} />}
              label={
                <span>
                  <strong>{t(`pages.users.roles.${role}`)}</strong>
                  {` · ${t(ownAdmin ? 'pages.users.cannotDemoteSelf' : `pages.users.rolesDialog.powers.${role}`)}`}
                </span>
              }
            />
          );
        })}
      </FormGroup>
    </ConfirmDialog>
  );
}
