import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { session } from '../../../providers/index.js';
import { useLocale } from '../../components/LocaleScope.js';
import { PageCard } from '../../components/PageCard.js';
import { STORED_CHECKOUT_KEY, SUB_PAYMENT_PATH } from '../../routing/guard.js';
import { RegistrationForm } from './RegistrationForm.js';
import { SignInForm } from './SignInForm.js';

/** The checkout a visitor chose, kept for after sign-in or sign-up (read by /sub-payment). */
export interface StoredCheckout {
  type: 'subscription' | 'perpetual';
  priceId: string | null;
  /** `?discount=` or `?discountCode=`, kept as given. */
  search: string;
}

/**
 * `checkout/{type}/{tab}/{priceId?}` (spec sections 2 and 4): the external checkout for visitors. The
 * chosen checkout is stored, and the visitor signs in (tab `login`) or registers (any other tab);
 * after signing in, or after confirming the new account, they continue to it at /sub-payment. A visitor
 * who is already signed in goes straight to checkout-new. This page stays on the public bundle: the
 * payment client loads only once the buyer is signed in.
 */
export default function ExternalCheckoutPage() {
  const { t } = useTranslation();
  const { localize } = useLocale();
  const navigate = useNavigate();
  const { search } = useLocation();
  const params = useParams();
  const type = params.type === 'perpetual' ? 'perpetual' : 'subscription';
  // Spec section 2: tab `login` selects signing in; any other tab (registration, or one we do not know) registers.
  const tab = params.tab === 'login' ? 'login' : 'registration';
  const priceId = params.priceId ?? null;
  const signedIn = session.getToken() !== null;

  useEffect(() => {
    if (signedIn) return;
    const stored: StoredCheckout = { type, priceId, search };
    sessionStorage.setItem(STORED_CHECKOUT_KEY, JSON.stringify(stored));
  }, [signedIn, type, priceId, search]);

  if (signedIn) return <Navigate to={localize(`/checkout-new/${type}${priceId ? `/${priceId}` : ''}${search}`)} replace />;

  const switchTo = (next: string) => navigate(localize(`/checkout/${type}/${next}${priceId ? `/${priceId}` : ''}${search}`), { replace: true });
  const product = t(type === 'perpetual' ? 'pages.externalCheckout.perpetual' : 'pages.externalCheckout.subscription');

  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Typography>{t('pages.externalCheckout.intro', { product })}</Typography>
      <Tabs value={tab} onChange={(_event, next: string) => void switchTo(next)} aria-label={t('pages.externalCheckout.tabs')}>
        <Tab value="login" label={t('pages.externalCheckout.loginTab')} />
        <Tab value="registration" label={t('pages.externalCheckout.registrationTab')} />
      </Tabs>
      {tab === 'login' ? (
        <SignInForm admin={false} title={t('pages.externalCheckout.loginTitle')} submitLabel={t('pages.login.submit')} returnTo={SUB_PAYMENT_PATH} />
      ) : (
        <PageCard title={t('pages.externalCheckout.registrationTitle')}>
          <RegistrationForm
            source="web"
            external
            onRegistered={(email) => void navigate(localize(`/users/confirm?email=${encodeURIComponent(email)}`), { state: { registration: true } })}
          />
        </PageCard>
      )}
    </Box>
  );
}
