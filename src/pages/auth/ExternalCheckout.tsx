import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Link as RouterLink, useLocation, useNavigate, useParams } from 'react-router';
import type { PreloadResponse } from '../../../contract/billing.js';
import { accountApi, session } from '../../../providers/index.js';
import { useLocale } from '../../components/LocaleScope.js';
import { PageCard } from '../../components/PageCard.js';
import { SocialButtons } from '../../components/SocialButtons.js';
import { catalogueText } from '../../billing/catalogueText.js';
import { formatPrice } from '../../format/index.js';
import { STORED_CHECKOUT_KEY, SUB_PAYMENT_PATH } from '../../routing/guard.js';
import { RegistrationForm } from './RegistrationForm.js';
import { SignInForm } from './SignInForm.js';
import { paths, type CheckoutType, type ExternalCheckoutTab } from '../../routing/paths.js';

/** The checkout a visitor chose, kept for after sign-in or sign-up (read by /sub-payment). */
export interface StoredCheckout {
  type: CheckoutType;
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
  const { t, i18n } = useTranslation();
  const { localize } = useLocale();
  const navigate = useNavigate();
  const { search } = useLocation();
  const params = useParams();
  const type = params.type === 'perpetual' ? 'perpetual' : 'subscription';
  // Spec section 2: tab `login` selects signing in; any other tab (registration, or one we do not know) registers.
  const tab = params.tab === 'login' ? 'login' : 'registration';
  const priceId = params.priceId ?? null;
  const signedIn = session.getToken() !== null;
  const query = new URLSearchParams(search);
  const discountId = query.get('discount') ?? undefined;
  const discountCode = query.get('discountCode') ?? undefined;
  // Issue 20 item 11: the visitor reads what they are about to buy and its price (the checkout's own
  // preview, without tax: the country is not known yet), not just "subscription". Public pages do not load
  // Refine, so this asks the account client; without an answer the page says what it said before.
  const [preview, setPreview] = useState<PreloadResponse | null>(null);
  useEffect(() => {
    if (signedIn) return;
    let cancelled = false;
    accountApi.previewCheckout(type, { ...(discountId ? { discountId } : {}), ...(discountCode ? { discountCode } : {}) }).then(
      (answer) => !cancelled && setPreview(answer),
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [signedIn, type, discountId, discountCode]);

  useEffect(() => {
    if (signedIn) return;
    const stored: StoredCheckout = { type, priceId, search };
    sessionStorage.setItem(STORED_CHECKOUT_KEY, JSON.stringify(stored));
  }, [signedIn, type, priceId, search]);

  if (signedIn) return <Navigate to={localize(paths.checkoutNew(type, priceId, search))} replace />;

  const switchTo = (next: ExternalCheckoutTab) => navigate(localize(paths.externalCheckout(type, next, priceId, search)), { replace: true });
  const product = t(type === 'perpetual' ? 'pages.externalCheckout.perpetual' : 'pages.externalCheckout.subscription');
  const items = preview?.details.lineItems ?? [];
  const chosen = items.filter((item) => item.price.id === priceId);
  const offers = preview
    ? (chosen.length > 0 ? chosen : items).map((item) =>
        t('pages.externalCheckout.offer', {
          plan: catalogueText(item.price.i18n, i18n.language).name,
          price: formatPrice(item.totals.subtotal, preview.currencyCode, i18n.language),
        }),
      )
    : [];

  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Typography data-testid="checkout-offer">
        {offers.length > 0
          ? t(chosen.length > 0 || offers.length === 1 ? 'pages.externalCheckout.introOffer' : 'pages.externalCheckout.introOffers', { product, offers: offers.join(t('pages.externalCheckout.or')) })
          : t('pages.externalCheckout.intro', { product })}
      </Typography>
      <Tabs value={tab} onChange={(_event, next: ExternalCheckoutTab) => void switchTo(next)} aria-label={t('pages.externalCheckout.tabs')}>
        <Tab value="login" label={t('pages.externalCheckout.loginTab')} />
        <Tab value="registration" label={t('pages.externalCheckout.registrationTab')} />
      </Tabs>
      {tab === 'login' ? (
        <SignInForm
          admin={false}
          title={t('pages.externalCheckout.loginTitle')}
          submitLabel={t('pages.login.submit')}
          returnTo={SUB_PAYMENT_PATH}
          footer={
            // As on the login page: a forgotten password and the social sign-ins, which come back here through /sub-payment.
            <>
              <SocialButtons />
              <Link component={RouterLink} to={localize(paths.forgotPassword)} sx={{ display: 'inline-block', mt: 3 }}>
                {t('pages.login.forgotPassword')}
              </Link>
            </>
          }
        />
      ) : (
        <PageCard title={t('pages.externalCheckout.registrationTitle')}>
          <RegistrationForm
            source="web"
            external
            onRegistered={(email) => void navigate(localize(paths.confirmCode(email)), { state: { registration: true } })}
          />
        </PageCard>
      )}
    </Box>
  );
}
