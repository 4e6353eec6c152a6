import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useGetIdentity, useLogout } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import type { Me } from '../../../contract/users.js';
import { formatDateTime } from '../../format/index.js';
import { LOGIN_PATH } from '../../routing/guard.js';
import { useLocale } from '../LocaleScope.js';

/**
 * Issue 47: on every page of a staff member's read-only view of a customer's account, above everything: whose
 * account it is, that nothing can be changed, until when, and the view's end. Ending it ends the view's
 * session on the server and closes the tab (the staff member's own session, in their other tabs, stays).
 */
export function ReadOnlyViewBanner() {
  const { t } = useTranslation();
  const { language, localize } = useLocale();
  const { data: user } = useGetIdentity<Me>();
  const { mutate: logout, isPending } = useLogout<{ redirectTo: string }>();
  const view = user?.readOnlyView;
  if (!user || !view) return null;
  return (
    <Alert
      severity="warning"
      variant="filled"
      role="status"
      data-testid="read-only-view"
      sx={{ borderRadius: 0, position: 'sticky', top: 0, zIndex: (theme) => theme.zIndex.appBar + 1 }}
      action={
        <Button
          color="inherit"
          variant="outlined"
          size="small"
          disabled={isPending}
          onClick={() => logout({ redirectTo: localize(LOGIN_PATH) }, { onSuccess: () => window.close() })}
        >
          {t('readOnlyView.end')}
        </Button>
      }
    >
      {t('readOnlyView.banner', { email: user.email, until: formatDateTime(view.expiresAt, language) })}
    </Alert>
  );
}
