import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import type { Subscription } from '../../../../contract/subscription.js';
import type { AdminUserDetail } from '../../../../contract/users.js';
import { useLocale } from '../../../components/LocaleScope.js';
import { formatDateTime, formatPrice } from '../../../format/index.js';
import type { StaffPowers } from '../users/useStaffPowers.js';
import type { UserAction } from './actions.js';
import { Empty, Facts, Section } from './Section.js';

/** The subscription's state in the account pages' words: a scheduled cancellation reads 'cancelling', a scheduled pause 'pausing'. */
function stateOf(subscription: Subscription): string {
  if (subscription.status !== 'canceled' && subscription.scheduledChange?.action === 'cancel') return 'cancelling';
  if (subscription.status !== 'canceled' && subscription.scheduledChange?.action === 'pause') return 'pausing';
  return subscription.status;
}

/**
 * Why the subscription cannot be refunded now (issue 48 item 11: the admin is told which reason applies):
 * its payment was refunded already, nothing was paid yet (a trial), the customer has had their one 14-day
 * refund (issue 46's refund-once rule), or the 14 days since the first payment have passed.
 */
export function noRefundReason(detail: Pick<AdminUserDetail, 'subscription' | 'transactions'>): 'refunded' | 'nothingPaid' | 'refundUsed' | 'pastDays' {
  const subscription = detail.subscription;
  const payments = detail.transactions.filter((transaction) => transaction.subscriptionId === subscription?.id && transaction.total.amount > 0);
  if (payments.some((payment) => payment.refundStatus !== null && payment.refundStatus !== 'rejected')) return 'refunded';
  if (payments.length === 0) return 'nothingPaid';
  if (subscription?.refundUsed) return 'refundUsed';
  return 'pastDays';
}

/**
 * The subscription with its state and next charge, and the customer's two ways out offered to support:
 * cancel at the period's end, or (within the refund window the server reports) cancel now with a refund.
 */
export function SubscriptionSection({ detail, onAction, allowed }: { detail: AdminUserDetail; onAction: (action: UserAction) => void; allowed: StaffPowers }) {
  const { t } = useTranslation();
  const { language } = useLocale();
  const { subscription } = detail;
  const when = (iso: string | null | undefined) => (iso ? formatDateTime(iso, language) : '—');
  if (!subscription) {
    return (
      <Section title={t('adminUser:subscription.title')} testId="user-subscription">
        <Empty>{t('adminUser:subscription.none')}</Empty>
      </Section>
    );
  }
  const state = stateOf(subscription);
  const live = subscription.status !== 'canceled';
  const refund = subscription.refund ? formatPrice(subscription.refund.amount.amount, subscription.refund.amount.currencyCode, language) : null;
  const endsAt = subscription.scheduledChange?.effectiveAt ?? subscription.currentPeriod?.endsAt ?? null;
  const due = subscription.status === 'past_due' ? subscription.pastDue : null;
  const pastDue = due
    ? t('adminUser:subscription.pastDue', {
        amount: formatPrice(due.amount.amount, due.amount.currencyCode, language),
        since: when(due.since),
        next: when(due.nextRetryAt ?? due.endsAt),
        endsAt: when(due.endsAt),
      })
    : null;
  return (
    <Section
      title={t('adminUser:subscription.title')}
      testId="user-subscription"
      actions={
        live && (
          <>
            {allowed.cancel && state !== 'cancelling' && (
              <Button variant="outlined" size="small" color="error" onClick={() => onAction({ kind: 'cancel', refund: false, endsAt })}>
                {t('adminUser:actions.cancel.button')}
              </Button>
            )}
            {allowed.refund && refund && (
              <Button variant="outlined" size="small" color="error" onClick={() => onAction({ kind: 'cancel', refund: true, amount: refund })}>
                {t('adminUser:actions.refund.button', { amount: refund })}
              </Button>
            )}
          </>
        )
      }
    >
      <Facts
        items={[
          [t('pages.subscription.status'), t(`pages.subscription.statuses.${state}`, { defaultValue: state })],
          [t('pages.subscription.plan'), subscription.interval === 'year' ? t('pages.subscription.yearly') : t('pages.subscription.monthly')],
          [t('adminUser:subscription.nextCharge'), live && subscription.nextBilledAt ? when(subscription.nextBilledAt) : '—'],
          [t('adminUser:subscription.period'), subscription.currentPeriod ? `${when(subscription.currentPeriod.startsAt)} – ${when(subscription.currentPeriod.endsAt)}` : '—'],
          ...(subscription.trialEndsAt ? ([[t('pages.subscription.trialEnds'), when(subscription.trialEndsAt)]] as [string, string][]) : []),
          ...(state === 'cancelling' ? ([[t('pages.subscription.activeUntil'), when(subscription.scheduledChange?.effectiveAt)]] as [string, string][]) : []),
          ...(subscription.canceledAt ? ([[t('adminUser:subscription.canceledAt'), when(subscription.canceledAt)]] as [string, string][]) : []),
          // Issue 46: an overdue renewal with the access policy while Paddle retries, and a pause.
          ...(pastDue ? ([[t('adminUser:subscription.pastDueLabel'), pastDue]] as [string, string][]) : []),
          ...(subscription.pause
            ? ([
                [
                  t('adminUser:subscription.pause'),
                  subscription.pause.resumesAt
                    ? t('adminUser:subscription.pauseUntil', { from: when(subscription.pause.startsAt), until: when(subscription.pause.resumesAt) })
                    : t('adminUser:subscription.pauseOpen', { from: when(subscription.pause.startsAt) }),
                ],
              ] as [string, string][])
            : []),
          [
            t('adminUser:subscription.refund'),
            subscription.refund && refund
              ? t(subscription.refundUsed ? 'adminUser:subscription.refundUntilStaff' : 'adminUser:subscription.refundUntil', { amount: refund, date: when(subscription.refund.until) })
              : t(`adminUser:subscription.noRefundBecause.${noRefundReason(detail)}`),
          ],
          [t('adminUser:subscription.id'), subscription.id],
        ]}
      />
    </Section>
  );
}
