import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useGetIdentity, useOne } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../routing/paths.js';
import type { Subscription } from '../../../contract/subscription.js';
import type { Me } from '../../../contract/users.js';
import type { DataError } from '../../../providers/dataProvider.js';
import { formatLongDate, formatPrice } from '../../format/index.js';
import { useLocale } from '../LocaleScope.js';

/**
 * Issue 46 item 5: on every signed-in page while a renewal is overdue, what is owed, when Paddle tries the
 * card again, when the subscription ends if nothing is paid, and the way to the card update (which
 * collects the payment at once). Read from the subscription the pages share, so it leaves with the live
 * update that the payment went through. Asked only of a subscriber (`/users/me`'s subscriptionId): the page
 * of anyone else makes no request for it.
 */
export function PastDueBanner() {
  const { t } = useTranslation();
  const { language, localize } = useLocale();
  const { data: me } = useGetIdentity<Me>();
  const { result: subscription } = useOne<Subscription, DataError>({
    resource: 'subscription',
    id: 'me',
    errorNotification: false,
    queryOptions: { retry: false, enabled: Boolean(me?.subscriptionId) },
  });
  if (subscription?.status !== 'past_due') return null;
  const due = subscription.pastDue;
  const date = (iso: string) => formatLongDate(iso, language);
  const text = !due
    ? t('pages.subscription.pastDue')
    : due.nextRetryAt && due.nextRetryAt !== due.endsAt
      ? t('pages.pastDue.banner', { amount: formatPrice(due.amount.amount, due.amount.currencyCode, language), date: date(due.nextRetryAt), endsAt: date(due.endsAt) })
      : t('pages.pastDue.bannerLast', { amount: formatPrice(due.amount.amount, due.amount.currencyCode, language), endsAt: date(due.endsAt) });
  return (
    <Alert
      severity="warning"
      sx={{ mb: 2 }}
      data-testid="past-due-banner"
      action={
        <Button color="inherit" size="small" component={RouterLink} to={localize(paths.paymentOptions)}>
          {t('pages.pastDue.update')}
        </Button>
      }
    >
      {text}
    </Alert>
  );
}
