import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useTranslation } from 'react-i18next';

/**
 * Shown while the session is being checked or a screen's code is loading; with a smaller `minHeight`, while
 * a section's data loads.
 */
export function FullPageSpinner({ minHeight = '60vh' }: { minHeight?: number | string }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', minHeight }} role="status" aria-live="polite">
      <CircularProgress aria-label={t('common.loading')} />
    </Box>
  );
}
