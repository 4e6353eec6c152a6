import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useList, useOne } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { PerpetualLicence, Plan, PlanOffer } from '../../../contract/billing.js';
import type { Subscription } from '../../../contract/subscription.js';
import type { DataError } from '../../../providers/dataProvider.js';
import { discountText } from '../../billing/catalogueText.js';
import { usePlanSwitch } from '../../billing/usePlanSwitch.js';
import { DownloadShapelab } from '../../components/DownloadShapelab.js';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { useLocale } from '../../components/LocaleScope.js';
import { useDocumentTitle } from '../../components/useDocumentTitle.js';
import { formatLongDate, formatPrice } from '../../format/index.js';
import { paths } from '../../routing/paths.js';
import { useReadOnly } from '../../data/readOnlyView.js';

/**
 * `/account/subscription/choose-plan` (spec sections 2 and 4): monthly, yearly (two months free) and the
 * free plan, prices excluding tax, with the launch offer a first subscription gets (its price and how
 * many payments it covers, from the server). Once subscribed (a trial too) the current plan is marked
 * "Current plan" with its state (trial, cancelled) and links to the subscription; the other plan offers
 * the switch to it, confirmed against the server's preview of the charge.
 */
export default function ChoosePlanPage({ titleKey }: { titleKey: string }) {
  const readOnly = useReadOnly();
  const { t } = useTranslation();
  const { language, localize } = useLocale();
  const title = t(titleKey);
  useDocumentTitle(title);
  const planList = useList<Plan, DataError>({ resource: 'plans', pagination: { mode: 'off' } });
  const licenceList = useList<PerpetualLicence, DataError>({ resource: 'licences', pagination: { mode: 'off' } });
  const { result: subscription, query } = useOne<Subscription, DataError>({ resource: 'subscription', id: 'me' });
  const planSwitch = usePlanSwitch(subscription?.status === 'trialing', () => void query.refetch());

  if (planList.query.isLoading || licenceList.query.isLoading || query.isLoading) return <FullPageSpinner />;
  if (!planList.query.isSuccess || !licenceList.query.isSuccess || !query.isSuccess) return null;
  const plans = planList.result.data;
  const licences = licenceList.result.data;
  const releases = [...new Set(licences.map((licence) => licence.release).filter((release): release is string => release !== null))];
  const live = subscription && subscription.status !== 'canceled' ? subscription : null;
  const freeCurrency = plans[0]?.unitPrice.currencyCode ?? subscription?.currencyCode ?? null;
  const date = (iso: string | null | undefined) => (iso ? formatLongDate(iso, language) : '');

  /** The current plan's state beside its "Current plan" mark: a trial or a cancellation with its date. */
  const stateOf = (current: Subscription) => {
    if (current.scheduledChange?.action === 'cancel') return t('pages.choosePlan.canceled', { date: date(current.scheduledChange.effectiveAt) });
    if (current.status === 'trialing') return t('pages.choosePlan.trial', { date: date(current.trialEndsAt) });
    return null;
  };
  const offerText = (plan: Plan, offer: PlanOffer) => {
    const price = formatPrice(offer.price.amount, offer.price.currencyCode, language);
    const first = !offer.recur
      ? t('pages.prices.offerOnce', { price })
      : offer.maximumRecurringIntervals === null
        ? t('pages.prices.offerEvery', { price })
        : t('pages.prices.offerFirst', { price, count: offer.maximumRecurringIntervals });
    const then = offer.recur && offer.maximumRecurringIntervals === null ? '' : `, ${t('pages.prices.offerThen', { price: formatPrice(plan.unitPrice.amount, plan.unitPrice.currencyCode, language), per: t(`pages.checkout.per.${plan.interval}`) })}`;
    return `${first}${then}`;
  };

  return (
    <Box component="section" aria-labelledby="page-title" data-testid="choose-plan-page">
      <Typography id="page-title" variant="h4" component="h1" gutterBottom>
        {title}
      </Typography>
      {releases.length > 0 && (
        <Alert severity="info" sx={{ mb: 2, maxWidth: 1000 }} data-testid="licence-notice">
          {t('pages.choosePlan.licenceNotice', { releases: releases.join(', ') })}
        </Alert>
      )}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' }, maxWidth: 1000 }}>
        {plans.map((plan) => {
          const current = live?.interval === plan.interval ? live : null;
          const state = current ? stateOf(current) : null;
          const name = plan.interval === 'year' ? t('pages.choosePlan.yearly') : t('pages.choosePlan.monthly');
          return (
            <Card key={plan.id} variant="outlined" component="article" aria-label={name} sx={{ display: 'flex', flexDirection: 'column' }}>
              <CardContent sx={{ flex: 1 }}>
                <Typography variant="h5" component="h2">
                  {name}
                </Typography>
                {plan.interval === 'year' && <Chip size="small" color="success" label={t('pages.choosePlan.twoMonthsFree')} sx={{ mt: 1 }} />}
                <Typography variant="h4" component="p" sx={{ mt: 2 }}>
                  {formatPrice(plan.unitPrice.amount, plan.unitPrice.currencyCode, language)}
                </Typography>
                <Typography color="text.secondary">
                  {plan.interval === 'year' ? t('pages.choosePlan.perYear') : t('pages.choosePlan.perMonth')} · {t('pages.choosePlan.excludingTax')}
                </Typography>
                {plan.trialDays !== null && !live && <Typography sx={{ mt: 1 }}>{t('pages.choosePlan.trialDays', { count: plan.trialDays })}</Typography>}
                {plan.offer && !live && (
                  <Alert severity="success" icon={false} sx={{ mt: 1 }} data-testid="plan-offer">
                    <Box component="strong" sx={{ display: 'block' }}>
                      {discountText(plan.offer.i18n, language)}
                    </Box>
                    {offerText(plan, plan.offer)}
                  </Alert>
                )}
                {current && <Chip color="primary" label={t('pages.choosePlan.current')} sx={{ mt: 2 }} data-testid="plan-mark" />}
                {state && (
                  <Typography color="text.secondary" sx={{ mt: 1 }} data-testid="plan-state">
                    {state}
                  </Typography>
                )}
              </CardContent>
              <CardActions>
                {current ? (
                  <Button component={RouterLink} to={localize(paths.subscription)}>
                    {t('pages.choosePlan.manage')}
                  </Button>
                ) : live ? (
                  // A cancelled or pausing plan is continued (a paused one resumed) on the subscription page before it can be switched.
                  live.scheduledChange === null && live.status !== 'paused' && (
                    <Button variant="contained" disabled={readOnly || planSwitch.busy} onClick={() => planSwitch.ask(plan.interval)}>
                      {t(`pages.prices.switchTo.${plan.interval}`)}
                    </Button>
                  )
                ) : (
                  <Button variant="contained" component={RouterLink} to={localize(paths.checkoutNew('subscription', plan.id))}>
                    {t('pages.choosePlan.choose', { plan: name })}
                  </Button>
                )}
              </CardActions>
            </Card>
          );
        })}
        <Card variant="outlined" component="article" aria-label={t('pages.choosePlan.free')} sx={{ display: 'flex', flexDirection: 'column' }}>
          <CardContent sx={{ flex: 1 }}>
            <Typography variant="h5" component="h2">
              {t('pages.choosePlan.free')}
            </Typography>
            {/* Free in the customer's own currency, the one the plans are priced in (issue 16: one currency). */}
            {freeCurrency && (
              <Typography variant="h4" component="p" sx={{ mt: 2 }}>
                {formatPrice(0, freeCurrency, language)}
              </Typography>
            )}
            <Typography color="text.secondary">{t('pages.choosePlan.freeDescription')}</Typography>
            {!live && <Chip label={t('pages.choosePlan.current')} sx={{ mt: 2 }} />}
          </CardContent>
          {/* Issue 48 item 5: staying on the free plan is a choice too: go on, or download the app first. */}
          {!live && (
            <CardActions sx={{ flexDirection: 'column', alignItems: 'flex-start', gap: 1, '& > :not(style) ~ :not(style)': { ml: 0 } }}>
              <DownloadShapelab />
              <Button component={RouterLink} to={localize(paths.home)}>
                {t('pages.choosePlan.continueFree')}
              </Button>
            </CardActions>
          )}
        </Card>
      </Box>
      <Alert severity="info" sx={{ mt: 3, maxWidth: 1000 }}>
        {t('pages.choosePlan.perpetualHint')}{' '}
        <RouterLink to={localize(paths.perpetualProducts)}>{t('pages.choosePlan.perpetualLink')}</RouterLink>
      </Alert>
      {planSwitch.dialog}
    </Box>
  );
}
