import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { BulkUserAction } from '../../../../contract/users.js';

/** The bulk actions shown while rows are selected (issue 21): how many, and what can be done to them. */
export function BulkActions({ count, onAction, busy }: { count: number; onAction: (action: BulkUserAction) => void; busy: boolean }) {
  const { t } = useTranslation();
  if (count === 0) return null;
  const actions: BulkUserAction[] = ['grant-admin', 'revoke-admin', 'delete'];
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
