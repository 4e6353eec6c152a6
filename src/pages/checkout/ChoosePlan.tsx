import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { PerpetualLicence, Plan } from '../../../contract/billing.js';
import type { Subscription } from '../../../contract/subscription.js';
import { messageKeyOf } from '../../../providers/http.js';
import { billingApi } from '../../billing/api.js';
import { formatPrice } from '../../billing/money.js';
import { ErrorAlert } from '../../components/ErrorAlert.js';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { useLocale } from '../../components/LocaleScope.js';
import { useDocumentTitle } from '../../components/useDocumentTitle.js';

/**
 * `/account/subscription/choose-plan` (spec sections 2 and 4): monthly, yearly (two months free) and the
 * free plan, prices excluding tax; the current plan, a cancelled one and a trial are marked.
 */
export default function ChoosePlanPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  const { language, localize } = useLocale();
  const title = t(titleKey);
  useDocumentTitle(title);
  const [state, setState] = useState<{ plans: Plan[]; subscription: Subscription | null; licences: PerpetualLicence[] } | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    Promise.all([billingApi.plans(), billingApi.subscription(), billingApi.licences()])
      .then(([plans, subscription, licences]) => setState({ plans, subscription, licences }))
      .catch((failure: unknown) => setError(messageKeyOf(failure)));
  }, []);

  if (!state) return error ? <ErrorAlert messageKey={error} /> : <FullPageSpinner />;
  const { plans, subscription, licences } = state;
  const releases = [...new Set(licences.map((licence) => licence.release).filter((release): release is string => release !== null))];
  const live = subscription && subscription.status !== 'canceled' ? subscription : null;
  const freeCurrency = plans[0]?.unitPrice.currencyCode ?? subscription?.currencyCode ?? null;
  const date = (iso: string | null | undefined) => (iso ? new Intl.DateTimeFormat(language, { dateStyle: 'long' }).format(new Date(iso)) : '');

  const markOf = (plan: Plan) => {
    if (!live || live.interval !== plan.interval) return null;
    if (live.scheduledChange?.action === 'cancel') return t('pages.choosePlan.canceled', { date: date(live.scheduledChange.effectiveAt) });
    if (live.status === 'trialing') return t('pages.choosePlan.trial', { date: date(live.trialEndsAt) });
    return t('pages.choosePlan.current');
  };

  return (
    <Box component="section" aria-labelledby="page-title" data-testid="choose-plan-page">
      <Typography id="page-title" variant="h4" component="h1" gutterBottom>
        {title}
      </Typography>
      <ErrorAlert messageKey={error} />
      {releases.length > 0 && (
        <Alert severity="info" sx={{ mb: 2, maxWidth: 1000 }} data-testid="licence-notice">
          {t('pages.choosePlan.licenceNotice', { releases: releases.join(', ') })}
        </Alert>
      )}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' }, maxWidth: 1000 }}>
        {plans.map((plan) => {
          const mark = markOf(plan);
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
                {mark && <Chip color="primary" label={mark} sx={{ mt: 2 }} data-testid="plan-mark" />}
              </CardContent>
              <CardActions>
                {live ? (
                  <Button component={RouterLink} to={localize('/account/subscription')}>
                    {t('pages.choosePlan.manage')}
                  </Button>
                ) : (
                  <Button variant="contained" component={RouterLink} to={localize(`/checkout-new/subscription/${plan.id}`)}>
                    {t('pages.choosePlan.choose', { plan: name })}
                  </Button>
                )}
              </CardActions>
            </Card>
          );
        })}
        <Card variant="outlined" component="article" aria-label={t('pages.choosePlan.free')}>
          <CardContent>
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
        </Card>
      </Box>
      <Alert severity="info" sx={{ mt: 3, maxWidth: 1000 }}>
        {t('pages.choosePlan.perpetualHint')}{' '}
        <RouterLink to={localize('/perpetual')}>{t('pages.choosePlan.perpetualLink')}</RouterLink>
      </Alert>
    </Box>
  );
}
