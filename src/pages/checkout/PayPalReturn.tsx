import { useCustom } from '@refinedev/core';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import type { Subscription } from '../../../contract/subscription.js';
import type { DataError } from '../../../providers/dataProvider.js';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { useLocale } from '../../components/LocaleScope.js';
import { paths } from '../../routing/paths.js';

/**
 * `paypal/return` and `paypal/cancel` (spec section 2): after PayPal, the subscription is approved (read
 * from the provider at once) and the user goes to the subscription page, which tells a failure on arrival.
 */
export default function PayPalReturnPage() {
  const { localize } = useLocale();
  const [params] = useSearchParams();
  const cancelled = useLocation().pathname.endsWith(paths.paypalCancel);
  const subscriptionId = params.get('subscriptionId') ?? params.get('subscription_id');
  const approving = !cancelled && subscriptionId !== null;
  const { query } = useCustom<Subscription, DataError>({
    url: `/subscription/approve/${encodeURIComponent(subscriptionId ?? '')}`,
    method: 'get',
    errorNotification: false,
    queryOptions: { enabled: approving, retry: false },
  });

  if (approving && query.isPending) return <FullPageSpinner />;
  const messageKey = approving && query.error ? query.error.messageKey : null;
  return <Navigate to={localize(paths.subscription)} replace state={messageKey ? { messageKey } : null} />;
}
