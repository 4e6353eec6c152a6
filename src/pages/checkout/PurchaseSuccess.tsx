import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useList, useOne } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import type { Invoice, Subscription } from '../../../contract/subscription.js';
import type { DataError } from '../../../providers/dataProvider.js';
import { DownloadShapelab } from '../../components/DownloadShapelab.js';
import { useLocale } from '../../components/LocaleScope.js';
import { PageCard } from '../../components/PageCard.js';
import { purchaseItemName } from '../../components/PurchaseItemName.js';
import { formatLongDate } from '../../format/index.js';
import { paths } from '../../routing/paths.js';

export const HELP_CENTRE_URL = 'https://help.shapelab.app';

/**
 * `subscription/success` and `perpetual/success` (spec section 2): the download, the help centre, the way
 * on to what was bought (the subscription, the licences) and back to the plans or releases; meanwhile the page waits for the provider's webhook (the live provider
 * refreshes `invoices` and `subscription` when it lands) and then shows what was granted.
 */
export default function PurchaseSuccessPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  const { language, localize } = useLocale();
  const perpetual = useLocation().pathname.endsWith(paths.perpetualSuccess);
  const invoices = useList<Invoice, DataError>({ resource: 'invoices', pagination: { mode: 'off' }, queryOptions: { enabled: perpetual }, errorNotification: false });
  const current = useOne<Subscription, DataError>({ resource: 'subscription', id: 'me', queryOptions: { enabled: !perpetual }, errorNotification: false });
  const latest = invoices.result.data[0];
  const purchase = latest && latest.items.some((item) => item.priceId) && latest.total.amount > 0 ? latest : null;
  const subscription = current.result && current.result.status !== 'canceled' ? current.result : null;

  const date = (iso: string | null | undefined) => (iso ? formatLongDate(iso, language) : '');
  const granted = perpetual ? purchase !== null : subscription !== null;

  return (
    <PageCard title={t(titleKey)} testId="purchase-success">
      {granted ? (
        <Alert severity="success" sx={{ mb: 2 }} role="status" data-testid="granted">
          {perpetual
            ? t('pages.success.licence', { name: purchase?.items[0] ? purchaseItemName(purchase.items[0], t) : '' })
            : subscription?.status === 'trialing'
              ? t('pages.success.trial', { date: date(subscription.trialEndsAt) })
              : t('pages.success.subscription', { plan: t(subscription?.interval === 'year' ? 'pages.choosePlan.yearly' : 'pages.choosePlan.monthly') })}
        </Alert>
      ) : (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2 }} role="status">
          <CircularProgress size={24} aria-hidden />
          <Typography>{t('pages.success.waiting')}</Typography>
        </Box>
      )}
      <DownloadShapelab />
      {/* Issue 48: onwards to what was bought, and back to the plans or releases the buyer came from. */}
      <Box sx={{ mt: 2, display: 'flex', flexWrap: 'wrap', gap: 1 }} data-testid="success-ways">
        <Button variant="contained" component={RouterLink} to={localize(perpetual ? paths.licences : paths.subscription)}>
          {t(perpetual ? 'pages.checkout.seeLicences' : 'pages.checkout.manageSubscription')}
        </Button>
        <Button component={RouterLink} to={localize(perpetual ? paths.perpetualProducts : paths.choosePlan)}>
          {t(perpetual ? 'pages.success.backToReleases' : 'pages.success.backToPlans')}
        </Button>
      </Box>
      <Typography sx={{ mt: 2 }}>
        <Link href={HELP_CENTRE_URL} target="_blank" rel="noopener">
          {t('pages.success.help')}
        </Link>
      </Typography>
    </PageCard>
  );
}
