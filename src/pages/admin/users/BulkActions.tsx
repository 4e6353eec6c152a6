import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { BulkUserAction } from '../../../../contract/users.js';
import type { StaffPowers } from './useStaffPowers.js';

/**
 * The bulk actions shown while rows are selected (issue 21): how many, and what can be done to them (issue 47:
 * each only when the staff member may take it one by one too).
 */
export function BulkActions({
  count,
  onAction,
  busy,
  allowed,
}: {
  count: number;
  onAction: (action: BulkUserAction) => void;
  busy: boolean;
  allowed: Pick<StaffPowers, 'bulk' | 'roles' | 'delete'>;
}) {
  const { t } = useTranslation();
  if (count === 0 || !allowed.bulk) return null;
  const actions: BulkUserAction[] = [...(allowed.roles ? (['grant-admin', 'revoke-admin'] as const) : []), ...(allowed.delete ? (['delete'] as const) : [])];
  return (
    <Box
      role="toolbar"
      aria-label={t('pages.users.bulk.selected', { count })}
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', mb: 1, px: 1.5, py: 1, borderRadius: 1, bgcolor: 'action.selected' }}
    >
      <Typography sx={{ mr: 1 }} aria-live="polite">
        {t('pages.users.bulk.selected', { count })}
      </Typography>
      {actions.map((action) => (
        <Button key={action} size="small" variant="outlined" color={action === 'delete' ? 'error' : 'primary'} disabled={busy} onClick={() => onAction(action)}>
          {t(`pages.users.bulk.${action}`)}
        </Button>
      ))}
    </Box>
  );
}
