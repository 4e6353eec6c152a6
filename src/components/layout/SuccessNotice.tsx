import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { closeSuccess, useSuccess } from './successNotice.js';

/**
 * What an action did, when it went well (issue 48 item 7): above the page, in its flow, never over it. A
 * snackbar at the bottom of a phone covered the buttons below it ("Refund and end now" after a
 * cancellation); here the notice pushes the page down and is scrolled into view, so it covers nothing. It
 * stays until closed, replaced by the next one, or the user moves to another page. Failures stay Refine's
 * snackbars (./notifications.ts): they can come from a dialog, over which they must show.
 */
export function SuccessNotice() {
  const { t } = useTranslation();
  const success = useSuccess();
  const location = useLocation();
  const shownAt = useRef(location.key);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (success === null) return;
    shownAt.current = location.key;
    box.current?.scrollIntoView({ block: 'nearest' });
    // Only a new success moves the page; the location is read for the next effect.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [success?.id]);
  // A move to another page ends it.
  useEffect(() => {
    if (location.key !== shownAt.current) closeSuccess();
  }, [location.key]);

  if (success === null) return null;
  return (
    <Alert
      ref={box}
      severity="success"
      role="alert"
      onClose={() => closeSuccess()}
      closeText={t('notifications.close')}
      sx={{ mb: 2, maxWidth: 1000, scrollMarginTop: 80 }}
      data-testid="success-notice"
    >
      {success.description ? (
        <>
          <AlertTitle>{success.title}</AlertTitle>
          {success.description}
        </>
      ) : (
        success.title
      )}
    </Alert>
  );
}
