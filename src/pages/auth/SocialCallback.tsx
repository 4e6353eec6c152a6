import { Suspense, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import type { TwoFactorStep } from '../../../providers/authProvider.js';
import { accountApi, authProvider } from '../../../providers/index.js';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { useLocale } from '../../components/LocaleScope.js';
import { PageCard } from '../../components/PageCard.js';
import { readCallback, type SocialProvider } from '../../components/social.js';
import { afterSocialLogin, STORED_CHECKOUT_KEY } from '../../routing/guard.js';
import { splitLocale } from '../../routing/locale.js';
import { preloadable } from '../../routing/preloadable.js';
import { paths } from '../../routing/paths.js';

/** The second step's form: its own chunk, loaded when the account asks for it (issue 44). */
const TwoFactorForm = preloadable(() => import('./TwoFactorForm.js')).Component;

/** States already sent to the server: a second run of the effect (React's strict mode) must not resend. */
const consumed = new Set<string>();

/**
 * `google/redirect` and `facebook/redirect`: the provider sent the browser back. The code signs in, and the
 * rules of spec section 2 decide where to go; on any failure the session is dropped and login shows why. An
 * account with a second factor answers it here first (issue 44); a challenge that expired sends the person
 * back to sign-in with the reason, as any failure does.
 */
export default function SocialCallback() {
  const { t } = useTranslation();
  const { localize } = useLocale();
  const navigate = useNavigate();
  const location = useLocation();
  const provider = splitLocale(location.pathname).path.split('/')[1] as SocialProvider;
  const [step, setStep] = useState<TwoFactorStep | null>(null);

  const failed = useCallback(
    (messageKey: string) => void navigate(localize(paths.login), { replace: true, state: { messageKey } }),
    [localize, navigate],
  );

  /** Signed in: on to the stored checkout, choose-plan or the profile (spec section 2). */
  const continueSignedIn = useCallback(() => {
    accountApi
      .purchasesAfterSignIn()
      .then(({ subscription, licences }) => {
        const next = afterSocialLogin({
          lastPayment: subscription,
          perpetualLicences: licences,
          hasStoredCheckout: sessionStorage.getItem(STORED_CHECKOUT_KEY) !== null,
        });
        void navigate(localize(next), { replace: true });
      })
      .catch(() => {
        void authProvider.logout();
        failed('SOCIAL_SIGN_IN_FAILED');
      });
  }, [failed, localize, navigate]);

  useEffect(() => {
    const callback = readCallback(location.search);
    if (callback.error || !callback.code) {
      void authProvider.logout();
      failed(callback.error === 'access_denied' ? 'SOCIAL_DENIED' : provider === 'facebook' ? 'FACEBOOK_CALLBACK_ERROR' : 'SOCIAL_SIGN_IN_FAILED');
      return;
    }
    if (consumed.has(callback.state)) return;
    consumed.add(callback.state);
    const { error: _error, ...answer } = callback;
    void authProvider
      .socialLogin({ provider, ...answer, redirectUrl: `${window.location.origin}${location.pathname}` })
      .then((result) => {
        if (result.success) continueSignedIn();
        else if ('twoFactor' in result) setStep(result.twoFactor);
        else failed(result.messageKey);
      })
      .catch(() => {
        void authProvider.logout();
        failed('SOCIAL_SIGN_IN_FAILED');
      });
  }, [location.pathname, location.search, failed, continueSignedIn, provider]);

  if (step === null) return <FullPageSpinner />;
  return (
    <PageCard title={t('pages.login.title')}>
      <Suspense fallback={<FullPageSpinner minHeight={200} />}>
        <TwoFactorForm
          step={step}
          onSignedIn={continueSignedIn}
          onRestart={(messageKey) => (messageKey ? failed(messageKey) : void navigate(localize(paths.login), { replace: true }))}
        />
      </Suspense>
    </PageCard>
  );
}
