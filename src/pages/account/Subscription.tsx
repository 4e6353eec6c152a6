import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import type { PaymentMethod, PlanChangePreview, Subscription } from '../../../contract/subscription.js';
import { http } from '../../../providers/index.js';
import { messageKeyOf } from '../../../providers/http.js';
import { billingApi } from '../../billing/api.js';
import { formatPrice } from '../../billing/money.js';
import { useEventStream } from '../../billing/useEventStream.js';
import { ErrorAlert } from '../../components/ErrorAlert.js';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { useLocale } from '../../components/LocaleScope.js';
import { PageCard } from '../../components/PageCard.js';

const DAY_MS = 86_400_000;

/** Whole days left of a trial that ends at `endsAt`, never below zero. */
export function trialDaysLeft(endsAt: string, now: Date): number {
  return Math.max(0, Math.ceil((Date.parse(endsAt) - now.getTime()) / DAY_MS));
}

type Pending = { kind: 'cancel' } | { kind: 'switch'; preview: PlanChangePreview } | null;

/**
 * `/account/subscription` (spec sections 2 and 4): the plan and its state (trial days left, next
 * billing, the date a cancelled plan stays active until), cancel and continue, a switch between monthly
 * and yearly confirmed against the prorated charge, and a new payment method. Every change is confirmed
 * in a dialog first; errors are shown by their messageKey.
 */
export default function SubscriptionPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  const { language, localize } = useLocale();
  const [subscription, setSubscription] = useState<Subscription | null | undefined>(undefined);
  // A failure on the way here (the PayPal return's approval) is shown on arrival.
  const [error, setError] = useState<string | null>((useLocation().state as { messageKey?: string } | null)?.messageKey ?? null);
  const [pending, setPending] = useState<Pending>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  const [method, setMethod] = useState<PaymentMethod | null>(null);

  const refresh = useCallback(async () => {
    try {
      const found = await billingApi.subscription();
      setSubscription(found);
      if (found && found.status !== 'canceled') setMethod(await http<PaymentMethod | null>('/subscription/payment-method'));
    } catch (failure) {
      setError(messageKeyOf(failure));
    }
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);
  useEventStream((event) => {
    if (event.type === 'subscription') void refresh();
  });

  const date = (iso: string | null | undefined) => (iso ? new Intl.DateTimeFormat(language, { dateStyle: 'long' }).format(new Date(iso)) : '');

  async function run(action: () => Promise<Subscription>, done: string) {
    setBusy(true);
    setError(null);
    try {
      setSubscription(await action());
      setNotice(done);
      setPending(null);
    } catch (failure) {
      setError(messageKeyOf(failure));
      setPending(null);
    } finally {
      setBusy(false);
    }
  }

  async function askSwitch(interval: 'month' | 'year') {
    setBusy(true);
    setError(null);
    try {
      setPending({ kind: 'switch', preview: await billingApi.previewChange(interval) });
    } catch (failure) {
      setError(messageKeyOf(failure));
    } finally {
      setBusy(false);
    }
  }

  if (subscription === undefined && !error) return <FullPageSpinner />;
  const title = t(titleKey);

  if (!subscription || subscription.status === 'canceled') {
    return (
      <PageCard title={title} testId="subscription-page">
        <ErrorAlert messageKey={error} />
        <Typography sx={{ mb: 2 }}>{subscription ? t('pages.subscription.ended', { date: date(subscription.canceledAt) }) : t('pages.subscription.none')}</Typography>
        <Button variant="contained" component={RouterLink} to={localize('/account/subscription/choose-plan')}>
          {t('pages.subscription.choosePlan')}
        </Button>
      </PageCard>
    );
  }

  const yearly = subscription.interval === 'year';
  const cancelling = subscription.scheduledChange?.action === 'cancel';
  const trialing = subscription.status === 'trialing';
  const endsAt = subscription.currentPeriod?.endsAt ?? null;
  const rows: [string, string][] = [
    [t('pages.subscription.plan'), yearly ? t('pages.subscription.yearly') : t('pages.subscription.monthly')],
    [t('pages.subscription.status'), t(`pages.subscription.statuses.${cancelling ? 'cancelling' : subscription.status}`)],
  ];
  if (trialing && subscription.trialEndsAt) {
    rows.push([t('pages.subscription.trialLeft'), t('pages.subscription.days', { count: trialDaysLeft(subscription.trialEndsAt, new Date()) })]);
    rows.push([t('pages.subscription.trialEnds'), date(subscription.trialEndsAt)]);
  }
  if (cancelling) rows.push([t('pages.subscription.activeUntil'), date(subscription.scheduledChange?.effectiveAt)]);
  else if (subscription.nextBilledAt) rows.push([t('pages.subscription.nextBilling'), date(subscription.nextBilledAt)]);
  if (subscription.currentPeriod && !trialing) rows.push([t('pages.subscription.lastBilling'), date(subscription.currentPeriod.startsAt)]);
  if (method) {
    rows.push([
      t('pages.subscription.paymentMethod'),
      method.card ? `${method.card.brand.toUpperCase()} •••• ${method.card.last4}` : t(`pages.paymentOptions.types.${method.type}`, { defaultValue: method.type }),
    ]);
  }

  return (
    <PageCard title={title} testId="subscription-page">
      <ErrorAlert messageKey={error} />
      {notice && (
        <Alert severity="success" sx={{ mb: 2 }} role="status">
          {notice}
        </Alert>
      )}
      {subscription.status === 'past_due' && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('pages.subscription.pastDue')}
        </Alert>
      )}
      <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 3, rowGap: 1, mb: 3 }}>
        {rows.map(([label, value]) => (
          <Box key={label} sx={{ display: 'contents' }}>
            <Typography component="dt" color="text.secondary">
              {label}
            </Typography>
            <Typography component="dd" sx={{ m: 0 }} data-testid={`subscription-${label}`}>
              {value}
            </Typography>
          </Box>
        ))}
      </Box>
      {trialing && <Chip color="info" label={t('pages.subscription.trialNote', { date: date(subscription.trialEndsAt) })} sx={{ mb: 2, height: 'auto', '& span': { whiteSpace: 'normal', py: 0.5 } }} />}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        {cancelling ? (
          <Button variant="contained" disabled={busy} onClick={() => void run(billingApi.continue, t('pages.subscription.continued'))}>
            {t('pages.subscription.continue')}
          </Button>
        ) : (
          <>
            <Button variant="contained" disabled={busy} onClick={() => void askSwitch(yearly ? 'month' : 'year')}>
              {yearly ? t('pages.subscription.switchToMonthly') : t('pages.subscription.switchToYearly')}
            </Button>
            <Button variant="outlined" color="error" disabled={busy} onClick={() => setPending({ kind: 'cancel' })}>
              {t('pages.subscription.cancel')}
            </Button>
          </>
        )}
        <Button variant="text" component={RouterLink} to={localize('/account/payment-options')}>
          {t('pages.paymentOptions.update')}
        </Button>
        <Button variant="text" component={RouterLink} to={localize('/account/subscription/choose-plan')}>
          {t('pages.subscription.comparePlans')}
        </Button>
      </Box>

      <Dialog open={pending?.kind === 'cancel'} onClose={() => setPending(null)} aria-labelledby="cancel-title">
        <DialogTitle id="cancel-title">{t('pages.subscription.cancelTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{t('pages.subscription.cancelText', { date: date(endsAt) })}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setPending(null)}>{t('pages.subscription.keep')}</Button>
          <Button color="error" disabled={busy} onClick={() => void run(billingApi.cancel, t('pages.subscription.cancelled', { date: date(endsAt) }))}>
            {t('pages.subscription.confirmCancel')}
          </Button>
        </DialogActions>
      </Dialog>

      <Dialog open={pending?.kind === 'switch'} onClose={() => setPending(null)} aria-labelledby="switch-title">
        {pending?.kind === 'switch' && (
          <>
            <DialogTitle id="switch-title">
              {pending.preview.interval === 'year' ? t('pages.subscription.switchToYearly') : t('pages.subscription.switchToMonthly')}
            </DialogTitle>
            <DialogContent>
              <DialogContentText data-testid="switch-charge">
                {t(trialing ? 'pages.subscription.switchChargeLater' : 'pages.subscription.switchChargeNow', {
                  amount: formatPrice(pending.preview.charge.amount, pending.preview.charge.currencyCode, language),
                  tax: formatPrice(pending.preview.tax.amount, pending.preview.tax.currencyCode, language),
                  date: date(pending.preview.chargedAt),
                })}
              </DialogContentText>
              <DialogContentText sx={{ mt: 1 }}>
                {t('pages.subscription.switchCycle', { start: date(pending.preview.newPeriod.startsAt), end: date(pending.preview.newPeriod.endsAt) })}
              </DialogContentText>
            </DialogContent>
            <DialogActions>
              <Button onClick={() => setPending(null)}>{t('pages.subscription.keep')}</Button>
              <Button variant="contained" disabled={busy} onClick={() => void run(() => billingApi.change(pending.preview.interval), t('pages.subscription.switched'))}>
                {t('pages.subscription.confirmSwitch')}
              </Button>
            </DialogActions>
          </>
        )}
      </Dialog>
    </PageCard>
  );
}
