import Alert from '@mui/material/Alert';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { arrivalNoticeOf } from '../../routing/guard.js';

/**
 * What the navigation to this screen says on arrival (src/routing/guard.ts, ArrivalNotice), above the screen
 * whichever it is: a verified address lands on choose-plan, or on the checkout the visitor chose first (issue
 * 48 item 5). A status, read out when it appears; it stays until closed or the next navigation.
 */
export function ArrivalNotice() {
  const { t } = useTranslation();
  const location = useLocation();
  const notice = arrivalNoticeOf(location.state);
  // Closed for this arrival (the history entry's key): a later arrival with a notice shows its own.
  const [closed, setClosed] = useState<string | null>(null);
  if (notice === null || closed === location.key) return null;
  return (
    <Alert
      severity="success"
      role="status"
      onClose={() => setClosed(location.key)}
      closeText={t('notifications.close')}
      sx={{ mb: 2, maxWidth: 1000 }}
      data-testid="arrival-notice"
    >
      {t(`notifications.${notice}`)}
    </Alert>
  );
}
