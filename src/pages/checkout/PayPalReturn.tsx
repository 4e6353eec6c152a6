import { useEffect, useState } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { messageKeyOf } from '../../../providers/http.js';
import { billingApi } from '../../billing/api.js';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { useLocale } from '../../components/LocaleScope.js';

/**
 * `paypal/return` and `paypal/cancel` (spec section 2): after PayPal, the subscription is approved (read
 * from the provider at once) and the user goes to the subscription page, where an error is shown too.
 */
export default function PayPalReturnPage() {
  const { localize } = useLocale();
  const [params] = useSearchParams();
  const cancelled = useLocation().pathname.endsWith('/paypal/cancel');
  const subscriptionId = params.get('subscriptionId') ?? params.get('subscription_id');
  const [done, setDone] = useState<{ messageKey: string | null } | null>(cancelled || !subscriptionId ? { messageKey: null } : null);

  useEffect(() => {
    if (done || !subscriptionId) return;
    billingApi
      .approve(subscriptionId)
      .then(() => setDone({ messageKey: null }))
      .catch((failure: unknown) => setDone({ messageKey: messageKeyOf(failure) }));
  }, [done, subscriptionId]);

  if (!done) return <FullPageSpinner />;
  return <Navigate to={localize('/account/subscription')} replace state={done.messageKey ? { messageKey: done.messageKey } : null} />;
}
