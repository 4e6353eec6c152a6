import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useCustomMutation, useList, useNotification, useOne } from '@refinedev/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import type { Plan } from '../../../contract/billing.js';
import type { Overview } from '../../../contract/overview.js';
import type { PaymentMethod, Subscription } from '../../../contract/subscription.js';
import type { DataError } from '../../../providers/dataProvider.js';
import { errorText } from '../../../providers/errors.js';
import { usePlanSwitch } from '../../billing/usePlanSwitch.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { useLocale } from '../../components/LocaleScope.js';
import { PageCard } from '../../components/PageCard.js';
import { formatLongDate, formatPrice } from '../../format/index.js';
import { CancelReasonFields, whyOf, type CancelWhy } from './subscription/CancelReasonFields.js';
import { PauseChoice, resumeAtOf, type PauseLength } from './subscription/PauseChoice.js';
import { paths } from '../../routing/paths.js';
import { useReadOnly } from '../../data/readOnlyView.js';

const DAY_MS = 86_400_000;

/** Whole days left of a trial that ends at `endsAt`, never below zero. */
export function trialDaysLeft(endsAt: string, now: Date): number {
  return Math.max(0, Math.ceil((Date.parse(endsAt) - now.getTime()) / DAY_MS));
}

/** How a subscription can be cancelled: now with a full refund, or at the end of the period. */
export type CancelChoice = 'refund' | 'period';

/**
 * The cancellations to offer (spec sections 4 and 9): at the end of the period, as always, unless that is
 * already set; and within 14 days of the first payment (while the server offers `refund` and its deadline
 * has not passed on this device's clock either) also ending it at once with every payment refunded.
 */
export function cancelChoices(subscription: Pick<Subscription, 'status' | 'scheduledChange' | 'refund'>, now: Date): CancelChoice[] {
  if (subscription.status === 'canceled') return [];
  const refund = subscription.refund !== null && Date.parse(subscription.refund.until) > now.getTime();
  const cancelling = subscription.scheduledChange?.action === 'cancel';
  return [...(refund ? (['refund'] as const) : []), ...(cancelling ? [] : (['period'] as const))];
}

type Pending = { kind: 'cancel'; choices: CancelChoice[] } | { kind: 'continue' } | { kind: 'pause'; startsAt: string } | { kind: 'resume' } | { kind: 'withdraw' } | null;

/** The subscription's state as the page names it: a scheduled cancellation or pause reads as what is coming. */
function stateOf(subscription: Subscription): string {
  if (subscription.scheduledChange?.action === 'cancel') return 'cancelling';
  if (subscription.scheduledChange?.action === 'pause') return 'pausing';
  return subscription.status;
}

/**
 * `/account/subscription` (spec sections 2, 4 and 9): the plan, its price and its state (trial days left,
 * next billing, the date a cancelled plan stays active until), cancel (within 14 days of the first payment
 * also with a full refund, ending it at once, once per customer: issue 46 item 1; asking why, item 8) and
 * continue, pause at the end of the period and resume (Paddle's scheduled pause, item 7; a trial is told it
 * cannot), an overdue payment with Paddle's next try (item 5), a switch between monthly and yearly
 * confirmed against the prorated charge, and a new payment method. Every change is confirmed first; its
 * outcome is a notification. The page follows changes made elsewhere through the live provider (`subscription`).
 */
export default function SubscriptionPage({ titleKey }: { titleKey: string }) {
  const readOnly = useReadOnly();
  const { t } = useTranslation();
  const { language, localize } = useLocale();
  const { open: notify } = useNotification();
  const { result: subscription, query } = useOne<Subscription, DataError>({ resource: 'subscription', id: 'me' });
  // Asked at once, beside the subscription, not after it (it was a waterfall: the page showed its content
  // only after both round trips); without a subscription the server answers null (issue 48 item 10: a 404
  // here was logged in the console). A payment provider that does not answer leaves the page without it.
  const { result: method } = useOne<PaymentMethod, DataError>({
    resource: 'payment-method',
    id: 'me',
    errorNotification: false,
    queryOptions: { retry: false },
  });
  // Issue 48 item 9: the next charge's amount, tax included, as the home tells it (one answer for both,
  // `overview`, which the live provider refreshes); without it the page gives the date alone.
  const { result: overview } = useOne<Overview, DataError>({ resource: 'overview', id: 'me', errorNotification: false, queryOptions: { retry: false } });
  // The plan's price is a detail: the page works without it.
  const { result: planList } = useList<Plan, DataError>({ resource: 'plans', pagination: { mode: 'off' }, errorNotification: false });
  const plans = planList.data;
  const { mutate: change, mutation } = useCustomMutation<Subscription, DataError>();
  const [pending, setPending] = useState<Pending>(null);
  const [choice, setChoice] = useState<CancelChoice>('period');
  const [why, setWhy] = useState<CancelWhy>({ reason: null, comment: '' });
  const [pauseLength, setPauseLength] = useState<PauseLength>(1);
  const planSwitch = usePlanSwitch(subscription?.status === 'trialing', () => void query.refetch());
  const busy = readOnly || mutation.isPending || planSwitch.busy;

  // A failure on the way here (the PayPal return's approval) is told on arrival.
  const arrival = (useLocation().state as { messageKey?: string } | null)?.messageKey;
  useEffect(() => {
    if (arrival) notify?.({ type: 'error', message: errorText(t, arrival) });
  }, [arrival, notify, t]);

  const date = (iso: string | null | undefined) => (iso ? formatLongDate(iso, language) : '');

  /** A change to the subscription, then its new state read again, whatever the outcome. */
  function run(url: string, values: object, done: () => string) {
    change(
      { url, method: 'post', values, successNotification: () => ({ type: 'success', message: done() }) },
      {
        onSettled: () => {
          setPending(null);
          void query.refetch();
        },
      },
    );
  }

  function askCancel(choices: CancelChoice[]) {
    setChoice(choices.includes('period') ? 'period' : 'refund');
    setWhy({ reason: null, comment: '' });
    setPending({ kind: 'cancel', choices });
  }

  const title = t(titleKey);
  // The page's frame at once, its rows as placeholders until the subscription is read.
  if (query.isLoading) {
    return (
      <PageCard title={title} testId="subscription-page">
        <Box aria-busy="true" data-testid="subscription-loading">
          {[0, 1, 2, 3].map((row) => (
            <Skeleton key={row} variant="text" sx={{ fontSize: '1rem', maxWidth: 420 }} />
          ))}
          <Skeleton variant="rounded" height={36} sx={{ mt: 2, maxWidth: 320 }} />
        </Box>
      </PageCard>
    );
  }

  if (!subscription || subscription.status === 'canceled') {
    return (
      <PageCard title={title} testId="subscription-page">
        <Typography sx={{ mb: 2 }}>{subscription ? t('pages.subscription.ended', { date: date(subscription.canceledAt) }) : t('pages.subscription.none')}</Typography>
        <Button variant="contained" component={RouterLink} to={localize(paths.choosePlan)}>
          {t('pages.subscription.choosePlan')}
        </Button>
      </PageCard>
    );
  }

  const yearly = subscription.interval === 'year';
  const cancelling = subscription.scheduledChange?.action === 'cancel';
  const pausing = subscription.scheduledChange?.action === 'pause';
  const paused = subscription.status === 'paused';
  const trialing = subscription.status === 'trialing';
  const pastDue = subscription.status === 'past_due' ? subscription.pastDue : null;
  const endsAt = subscription.currentPeriod?.endsAt ?? null;
  const choices = cancelChoices(subscription, new Date());
  const refund = subscription.refund ? formatPrice(subscription.refund.amount.amount, subscription.refund.amount.currencyCode, language) : '';
  // The plan's price as the customer is offered it; only when it is in the subscription's own currency.
  const plan = plans.find((candidate) => candidate.interval === subscription.interval && candidate.unitPrice.currencyCode === subscription.currencyCode);
  const price = plan ? t(`pages.subscription.pricePer.${plan.interval}`, { price: formatPrice(plan.unitPrice.amount, plan.unitPrice.currencyCode, language) }) : null;

  const rows: [string, string][] = [
    [t('pages.subscription.plan'), yearly ? t('pages.subscription.yearly') : t('pages.subscription.monthly')],
    [t('pages.subscription.status'), t(`pages.subscription.statuses.${stateOf(subscription)}`)],
  ];
  if (price) rows.push([t('pages.subscription.price'), `${price} · ${t('pages.choosePlan.excludingTax')}`]);
  if (trialing && subscription.trialEndsAt) {
    rows.push([t('pages.subscription.trialLeft'), t('pages.subscription.days', { count: trialDaysLeft(subscription.trialEndsAt, new Date()) })]);
    rows.push([t('pages.subscription.trialEnds'), date(subscription.trialEndsAt)]);
  }
  if (cancelling) rows.push([t('pages.subscription.activeUntil'), date(subscription.scheduledChange?.effectiveAt)]);
  else if (pausing) rows.push([t('pages.subscription.pausesOn'), date(subscription.pause?.startsAt)]);
  else if (subscription.nextBilledAt) {
    const next = overview?.subscription?.nextCharge?.amount ?? null;
    rows.push([
      t('pages.subscription.nextBilling'),
      next ? t('pages.subscription.nextChargeValue', { amount: formatPrice(next.amount, next.currencyCode, language), date: date(subscription.nextBilledAt) }) : date(subscription.nextBilledAt),
    ]);
  }
  if (subscription.pause?.resumesAt) rows.push([t('pages.subscription.resumesOn'), date(subscription.pause.resumesAt)]);
  if (subscription.currentPeriod && !trialing) rows.push([t('pages.subscription.lastBilling'), date(subscription.currentPeriod.startsAt)]);
  if (method) {
    rows.push([
      t('pages.subscription.paymentMethod'),
      method.card ? `${method.card.brand.toUpperCase()} •••• ${method.card.last4}` : t(`pages.paymentOptions.types.${method.type}`, { defaultValue: method.type }),
    ]);
  }
  if (subscription.refund && choices.includes('refund')) rows.push([t('pages.subscription.refundUntil'), date(subscription.refund.until)]);

  // Billing resumes when the cancellation would have taken effect (spec section 4).
  const resumesAt = date(subscription.scheduledChange?.effectiveAt ?? subscription.nextBilledAt);

  return (
    <PageCard title={title} testId="subscription-page">
      {subscription.status === 'past_due' && (
        <Alert severity="warning" sx={{ mb: 2 }} data-testid="subscription-past-due">
          {pastDue
            ? pastDue.nextRetryAt && pastDue.nextRetryAt !== pastDue.endsAt
              ? t('pages.subscription.pastDueDetails', {
                  amount: formatPrice(pastDue.amount.amount, pastDue.amount.currencyCode, language),
                  since: date(pastDue.since),
                  date: date(pastDue.nextRetryAt),
                  endsAt: date(pastDue.endsAt),
                })
              : t('pages.subscription.pastDueLast', { amount: formatPrice(pastDue.amount.amount, pastDue.amount.currencyCode, language), since: date(pastDue.since), endsAt: date(pastDue.endsAt) })
            : t('pages.subscription.pastDue')}
        </Alert>
      )}
      {/* Issue 46 item 1: the customer's one refund of a subscription was had: this one is not refundable. */}
      {subscription.refundUsed && !cancelling && (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="subscription-refund-used">
          {t('pages.subscription.refundUsed')}
        </Alert>
      )}
      {/* Label beside value where there is room; on a phone each label above its value (issue 48 item 7: a
          label column left the values 100 px). */}
      <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'max-content minmax(0, 1fr)' }, columnGap: 3, rowGap: { xs: 0, sm: 1 }, mt: 0, mb: 3 }}>
        {rows.map(([label, value]) => (
          <Box key={label} sx={{ display: 'contents' }}>
            <Typography component="dt" color="text.secondary" sx={{ typography: { xs: 'body2', sm: 'body1' }, mt: { xs: 1, sm: 0 } }}>
              {label}
            </Typography>
            <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }} data-testid={`subscription-${label}`}>
              {value}
            </Typography>
          </Box>
        ))}
      </Box>
      {/* What will happen, stated as it is: a cancelled trial ends without a charge; a cancellation ends access on its date. */}
      {trialing && cancelling && (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="subscription-notice">
          {t('pages.prices.trialCancelled', { date: date(subscription.scheduledChange?.effectiveAt ?? subscription.trialEndsAt) })}
        </Alert>
      )}
      {trialing && !cancelling && (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="subscription-notice">
          {t('pages.prices.trialActive', { date: date(subscription.trialEndsAt) })}
        </Alert>
      )}
      {!trialing && cancelling && (
        <Alert severity="warning" sx={{ mb: 2 }} data-testid="subscription-notice">
          {t('pages.prices.cancelScheduled', { date: date(subscription.scheduledChange?.effectiveAt) })}
        </Alert>
      )}
      {pausing && subscription.pause && (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="subscription-notice">
          {subscription.pause.resumesAt
            ? t('pages.subscription.pauseScheduled', { date: date(subscription.pause.startsAt), until: date(subscription.pause.resumesAt) })
            : t('pages.subscription.pauseScheduledOpen', { date: date(subscription.pause.startsAt) })}
        </Alert>
      )}
      {paused && (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="subscription-notice">
          {subscription.pause?.resumesAt
            ? t('pages.subscription.pausedSince', { date: date(subscription.pause.startsAt), until: date(subscription.pause.resumesAt) })
            : t('pages.subscription.pausedSinceOpen', { date: date(subscription.pause?.startsAt) })}
        </Alert>
      )}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        {cancelling ? (
          <>
            <Button variant="contained" disabled={busy} onClick={() => setPending({ kind: 'continue' })}>
              {t('pages.subscription.continue')}
            </Button>
            {choices.includes('refund') && (
              <Button variant="outlined" color="error" disabled={busy} onClick={() => askCancel(choices)}>
                {t('pages.subscription.refundNow')}
              </Button>
            )}
          </>
        ) : paused || pausing ? (
          <>
            <Button variant="contained" disabled={busy} onClick={() => setPending(paused ? { kind: 'resume' } : { kind: 'withdraw' })}>
              {paused ? t('pages.subscription.resume') : t('pages.subscription.withdrawPause')}
            </Button>
            <Button variant="outlined" color="error" disabled={busy} onClick={() => askCancel(choices)}>
              {t('pages.subscription.cancel')}
            </Button>
          </>
        ) : (
          <>
            <Button variant="contained" disabled={busy} onClick={() => planSwitch.ask(yearly ? 'month' : 'year')}>
              {yearly ? t('pages.subscription.switchToMonthly') : t('pages.subscription.switchToYearly')}
            </Button>
            {subscription.status === 'active' && endsAt && (
              <Button
                variant="outlined"
                disabled={busy}
                onClick={() => {
                  setPauseLength(1);
                  setPending({ kind: 'pause', startsAt: endsAt });
                }}
              >
                {t('pages.subscription.pause')}
              </Button>
            )}
            <Button variant="outlined" color="error" disabled={busy} onClick={() => askCancel(choices)}>
              {t('pages.subscription.cancel')}
            </Button>
          </>
        )}
        <Button variant="text" component={RouterLink} to={localize(paths.paymentOptions)}>
          {t('pages.paymentOptions.update')}
        </Button>
        <Button variant="text" component={RouterLink} to={localize(paths.choosePlan)}>
          {t('pages.subscription.comparePlans')}
        </Button>
      </Box>
      {/* Issue 46 item 7: a trial ends or is charged; it cannot pause, and the page says so where the button would be. */}
      {trialing && !cancelling && (
        <Typography color="text.secondary" sx={{ mt: 1 }} data-testid="pause-trial">
          {t('pages.subscription.pauseTrial')}
        </Typography>
      )}

      <ConfirmDialog
        open={pending?.kind === 'cancel'}
        title={t('pages.subscription.cancelTitle')}
        confirmLabel={t('pages.subscription.confirmCancel')}
        cancelLabel={t('pages.subscription.keep')}
        destructive
        busy={busy}
        onCancel={() => setPending(null)}
        onConfirm={() =>
          choice === 'refund'
            ? run('/subscription/cancel', { refund: true, ...whyOf(why) }, () => t('pages.subscription.refunded', { amount: refund }))
            : run('/subscription/cancel', whyOf(why), () => (paused || subscription.status === 'past_due' ? t('pages.subscription.cancelledNow') : t('pages.subscription.cancelled', { date: date(endsAt) })))
        }
      >
        {pending?.kind === 'cancel' && pending.choices.includes('refund') ? (
          <RadioGroup aria-label={t('pages.subscription.cancelHow')} value={choice} onChange={(event) => setChoice(event.target.value as CancelChoice)}>
            <FormControlLabel value="refund" control={<Radio />} label={t('pages.subscription.cancelWithRefund', { amount: refund })} />
            {pending.choices.includes('period') && (
              <FormControlLabel value="period" control={<Radio />} label={t('pages.subscription.cancelAtPeriodEnd', { date: date(endsAt) })} />
            )}
          </RadioGroup>
        ) : paused || subscription.status === 'past_due' ? (
          // A paused subscription runs no period, an overdue one's was not paid: either ends at once.
          t('pages.subscription.cancelNowText')
        ) : (
          t('pages.subscription.cancelText', { date: date(endsAt) })
        )}
        <CancelReasonFields value={why} onChange={setWhy} />
      </ConfirmDialog>

      <ConfirmDialog
        open={pending?.kind === 'pause'}
        title={t('pages.subscription.pauseTitle')}
        confirmLabel={t('pages.subscription.confirmPause')}
        cancelLabel={t('pages.subscription.back')}
        busy={busy}
        onCancel={() => setPending(null)}
        onConfirm={() => {
          if (pending?.kind !== 'pause') return;
          const resumeAt = resumeAtOf(pending.startsAt, pauseLength);
          run('/subscription/pause', resumeAt ? { resumeAt } : {}, () => t('pages.subscription.paused', { date: date(pending.startsAt) }));
        }}
      >
        {pending?.kind === 'pause' && (
          <>
            {t('pages.subscription.pauseText', { date: date(pending.startsAt) })}
            <PauseChoice startsAt={pending.startsAt} value={pauseLength} onChange={setPauseLength} />
          </>
        )}
      </ConfirmDialog>

      <ConfirmDialog
        open={pending?.kind === 'resume'}
        title={t('pages.subscription.resumeTitle')}
        confirmLabel={t('pages.subscription.resume')}
        cancelLabel={t('pages.subscription.back')}
        busy={busy}
        onCancel={() => setPending(null)}
        onConfirm={() => run('/subscription/resume', {}, () => t('pages.subscription.resumed'))}
      >
        {price ? t('pages.subscription.resumeText', { price }) : t('pages.subscription.resumeTextNoPrice')}
      </ConfirmDialog>

      <ConfirmDialog
        open={pending?.kind === 'withdraw'}
        title={t('pages.subscription.withdrawTitle')}
        confirmLabel={t('pages.subscription.withdrawPause')}
        cancelLabel={t('pages.subscription.back')}
        busy={busy}
        onCancel={() => setPending(null)}
        onConfirm={() => run('/subscription/resume', {}, () => t('pages.subscription.pauseWithdrawn'))}
      >
        {t('pages.subscription.withdrawText', { date: date(subscription.pause?.startsAt) })}
      </ConfirmDialog>

      <ConfirmDialog
        open={pending?.kind === 'continue'}
        title={t('pages.subscription.continueTitle')}
        confirmLabel={t('pages.subscription.continue')}
        cancelLabel={t('pages.subscription.back')}
        busy={busy}
        onCancel={() => setPending(null)}
        onConfirm={() => run('/subscription/continue', {}, () => t('pages.subscription.continued'))}
      >
        {price ? t('pages.subscription.continueText', { date: resumesAt, price }) : t('pages.subscription.continueTextNoPrice', { date: resumesAt })}
      </ConfirmDialog>

      {planSwitch.dialog}
    </PageCard>
  );
}
