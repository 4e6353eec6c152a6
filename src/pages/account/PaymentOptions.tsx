import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { PaymentMethod, Subscription } from '../../../contract/subscription.js';
import { http } from '../../../providers/index.js';
import { messageKeyOf } from '../../../providers/http.js';
import { billingApi } from '../../billing/api.js';
import { createCheckoutDispatcher } from '../../billing/checkout-events.js';
import { listenToPaddle, loadPaddle } from '../../billing/paddle.js';
import { ErrorAlert } from '../../components/ErrorAlert.js';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { useLocale } from '../../components/LocaleScope.js';
import { PageCard } from '../../components/PageCard.js';

/**
 * `/account/payment-options` (spec section 2): how the subscription is paid, and a new card or PayPal
 * through the provider's checkout (a payment-method transaction; an overdue renewal is collected on it).
 */
export default function PaymentOptionsPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  const { language, localize } = useLocale();
  const [state, setState] = useState<{ subscription: Subscription | null; method: PaymentMethod | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const refresh = useCallback(async () => {
    try {
      const subscription = await billingApi.subscription();
      const live = subscription && subscription.status !== 'canceled' ? subscription : null;
      setState({ subscription: live, method: live ? await http<PaymentMethod | null>('/subscription/payment-method') : null });
    } catch (failure) {
      setError(messageKeyOf(failure));
    }
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  useEffect(
    () =>
      listenToPaddle(
        createCheckoutDispatcher(() => ({
          completed: () => {
            setNotice(t('pages.paymentOptions.updated'));
            void loadPaddle().then((paddle) => paddle.Checkout.close());
            // The webhook that records the new method follows the provider's event by a moment.
            setTimeout(() => void refresh(), 1500);
          },
          error: ({ detail }) => setNotice(detail),
        })),
      ),
    [refresh, t],
  );

  async function update() {
    setError(null);
    setNotice(null);
    try {
      const [paddle, { transactionId }] = await Promise.all([loadPaddle(), billingApi.paymentMethod()]);
      paddle.Checkout.open({ transactionId, settings: { displayMode: 'overlay', theme: 'dark', locale: language } });
    } catch (failure) {
      setError(failure instanceof Error ? 'PAYMENT_SCRIPT_FAILED' : messageKeyOf(failure));
    }
  }

  if (!state && !error) return <FullPageSpinner />;
  const method = state?.method;
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
      <ErrorAlert messageKey={error} />
      {notice && (
        <Alert severity="info" sx={{ mb: 2 }} role="status">
          {notice}
        </Alert>
      )}
      {!state?.subscription ? (
        <>
          <Typography sx={{ mb: 2 }}>{t('pages.paymentOptions.none')}</Typography>
          <Button component={RouterLink} to={localize('/account/subscription/choose-plan')} variant="contained">
            {t('pages.subscription.choosePlan')}
          </Button>
        </>
      ) : (
        <>
          {state.subscription.status === 'past_due' && (
            <Alert severity="warning" sx={{ mb: 2 }}>
              {t('pages.subscription.pastDue')}
            </Alert>
          )}
          <Typography sx={{ mb: 2 }} data-testid="payment-method">
            {method ? describe(method) : t('pages.paymentOptions.unknown')}
          </Typography>
          <Button variant="contained" onClick={() => void update()}>
            {t('pages.paymentOptions.update')}
          </Button>
        </>
      )}
    </PageCard>
  );
}
