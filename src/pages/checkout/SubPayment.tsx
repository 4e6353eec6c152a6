import { Navigate, useLocation } from 'react-router';
import { useLocale } from '../../components/LocaleScope.js';
import { arrivalNoticeOf, arrivalState, CHOOSE_PLAN_PATH, STORED_CHECKOUT_KEY } from '../../routing/guard.js';
import type { StoredCheckout } from '../auth/ExternalCheckout.js';
import { paths } from '../../routing/paths.js';

/** The stored checkout, if it is one (sessionStorage is the visitor's to edit). */
function readStored(): StoredCheckout | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(STORED_CHECKOUT_KEY) ?? 'null') as Partial<StoredCheckout> | null;
    if (!value || (value.type !== 'subscription' && value.type !== 'perpetual')) return null;
    const priceId = typeof value.priceId === 'string' && /^pri_[a-z0-9]+$/.test(value.priceId) ? value.priceId : null;
    const search = typeof value.search === 'string' && /^(\?[\w=&%.-]*)?$/.test(value.search) ? value.search : '';
    return { type: value.type, priceId, search };
  } catch {
    return null;
  }
}

/**
 * `/sub-payment` (spec section 2): where sign-in or a confirmed registration continues when a visitor
 * chose a checkout first. The stored checkout is used once, opening checkout-new with its price and
 * discount; without one, the user chooses a plan.
 */
export default function SubPaymentPage() {
  const { localize } = useLocale();
  // What the navigation here says on arrival (a verified address, src/routing/guard.ts) goes on with it.
  const notice = arrivalNoticeOf(useLocation().state);
  const state = notice ? arrivalState(notice) : null;
  const stored = readStored();
  sessionStorage.removeItem(STORED_CHECKOUT_KEY);
  if (!stored) return <Navigate to={localize(CHOOSE_PLAN_PATH)} replace state={state} />;
  return <Navigate to={localize(paths.checkoutNew(stored.type, stored.priceId, stored.search))} replace state={state} />;
}
