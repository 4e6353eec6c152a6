import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useCustomMutation, useNotification, useOne } from '@refinedev/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { PaymentMethod, Subscription } from '../../../contract/subscription.js';
import type { DataError } from '../../../providers/dataProvider.js';
import { createCheckoutDispatcher } from '../../billing/checkout-events.js';
import { listenToPaddle, loadPaddle, useCheckoutOverlay } from '../../billing/paddle.js';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { useLocale } from '../../components/LocaleScope.js';
import { PageCard } from '../../components/PageCard.js';
import { paths } from '../../routing/paths.js';
import { useReadOnly } from '../../data/readOnlyView.js';

/**
 * `/account/payment-options` (spec section 2): how the subscription is paid, and a new card or PayPal
 * through the provider's checkout (a payment-method transaction; an overdue renewal is collected on it).
 * The method shown follows the webhook that records a new one (live resources `subscription` and
 * `payment-method`), with no timed refresh.
 */
export default function PaymentOptionsPage({ titleKey }: { titleKey: string }) {
  const readOnly = useReadOnly();
  const { t } = useTranslation();
  const { language, localize } = useLocale();
  const { open: notify } = useNotification();
  const { result: found, query } = useOne<Subscription, DataError>({ resource: 'subscription', id: 'me' });
  const subscription = found && found.status !== 'canceled' ? found : null;
  const { result: method } = useOne<PaymentMethod, DataError>({ resource: 'payment-method', id: 'me', queryOptions: { enabled: subscription !== null } });
  const { mutateAsync: openPaymentMethodCheckout } = useCustomMutation<{ transactionId: string }, DataError>();
  const opened = useCheckoutOverlay();

  useEffect(
    () =>
      listenToPaddle(
        createCheckoutDispatcher(() => ({
          completed: () => {
            notify?.({ type: 'success', message: t('pages.paymentOptions.updated') });
            void loadPaddle().then((paddle) => paddle.Checkout.close());
          },
          error: ({ detail }) => notify?.({ type: 'error', message: detail }),
        })),
      ),
    [notify, t],
  );

  async function update() {
    const [paddle, checkout] = await Promise.all([
      loadPaddle().catch(() => {
        notify?.({ type: 'error', message: t('errors.PAYMENT_SCRIPT_FAILED') });
        return null;
      }),
      openPaymentMethodCheckout({ url: '/subscription/payment-method', method: 'post', values: {} }).catch(() => null),
    ]);
    if (!paddle || !checkout) return;
    paddle.Checkout.open({ transactionId: checkout.data.transactionId, settings: { displayMode: 'overlay', theme: 'dark', locale: language } });
    opened.current = true;
  }

  if (query.isLoading) return <FullPageSpinner />;
  const describe = (found: PaymentMethod) =>
    found.card
      ? t('pages.paymentOptions.card', {
          brand: found.card.brand.toUpperCase(),
          last4: found.card.last4,
          expiry: `${String(found.card.expiryMonth).padStart(2, '0')}/${found.card.expiryYear}`,
        })
      : t(`pages.paymentOptions.types.${found.type}`, { defaultValue: found.type });

  return (
    <PageCard title={t(titleKey)} testId="payment-options">
      {!subscription ? (
        <>
          <Typography sx={{ mb: 2 }}>{t('pages.paymentOptions.none')}</Typography>
          <Button component={RouterLink} to={localize(paths.choosePlan)} variant="contained">
            {t('pages.subscription.choosePlan')}
          </Button>
        </>
      ) : (
        <>
          {subscription.status === 'past_due' && (
            <Alert severity="warning" sx={{ mb: 2 }}>
              {t('pages.subscription.pastDue')}
            </Alert>
          )}
          <Typography sx={{ mb: 2 }} data-testid="payment-method">
            {method ? describe(method) : t('pages.paymentOptions.unknown')}
          </Typography>
          {/* Its own flow, not a purchase: a title of its own and what saving a card does, never a price. */}
          <Typography variant="h6" component="h2" id="update-card-title">
            {t('pages.prices.updateCardTitle')}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 2 }} data-testid="update-card-text">
            {t('pages.prices.updateCardText')}
            {` ${t(subscription.status === 'past_due' ? 'pages.prices.updateCardPastDue' : 'pages.prices.updateCardFree')}`}
          </Typography>
          <Button variant="contained" aria-describedby="update-card-title" disabled={readOnly} onClick={() => void update()}>
            {t('pages.prices.updateCard')}
          </Button>
        </>
      )}
    </PageCard>
  );
}
