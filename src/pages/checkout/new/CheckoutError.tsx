import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert.js';
import { useLocale } from '../../../components/LocaleScope.js';
import { paths } from '../../../routing/paths.js';
import { errorText } from '../../../../providers/errors.js';

/** Refusals that mean the user has it already (issue 16): the way to where they manage it. */
const MANAGE: Record<string, { path: string; label: string }> = {
  SUBSCRIPTION_EXISTS: { path: paths.subscription, label: 'pages.checkout.manageSubscription' },
  PRODUCT_ALREADY_OWNED: { path: paths.licences, label: 'pages.checkout.seeLicences' },
};

/**
 * A refused checkout, by its messageKey. It stays on the page (not a passing notification): the checkout
 * cannot go on until the buyer does something about it.
 */
export function CheckoutError({ messageKey }: { messageKey: string | null }) {
  const { t } = useTranslation();
  const { localize } = useLocale();
  const link = messageKey ? MANAGE[messageKey] : undefined;
  if (!link) return <ErrorAlert messageKey={messageKey} />;
  return (
    <Alert
      severity="error"
      sx={{ mb: 2 }}
      role="alert"
      action={
        <Button color="inherit" size="small" component={RouterLink} to={localize(link.path)}>
          {t(link.label)}
        </Button>
      }
    >
      {errorText(t, messageKey)}
    </Alert>
  );
}
