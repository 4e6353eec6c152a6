import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { accountApi, authProvider } from '../../../providers/index.js';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { useLocale } from '../../components/LocaleScope.js';
import { readCallback, type SocialProvider } from '../../components/social.js';
import { afterSocialLogin, STORED_CHECKOUT_KEY } from '../../routing/guard.js';
import { splitLocale } from '../../routing/locale.js';

/** States already sent to the server: a second run of the effect (React's strict mode) must not resend. */
const consumed = new Set<string>();

/**
 * `google/redirect` and `facebook/redirect`: the provider sent the browser back. The code signs in, and the
 * rules of spec section 2 decide where to go; on any failure the session is dropped and login shows why.
 */
export default function SocialCallback() {
  const { localize } = useLocale();
  const navigate = useNavigate();
  const location = useLocation();
  const provider = splitLocale(location.pathname).path.split('/')[1] as SocialProvider;

  useEffect(() => {
    const callback = readCallback(location.search);
    const failed = (messageKey: string) => navigate(localize('/login'), { replace: true, state: { messageKey } });
    if (callback.error || !callback.code) {
      void authProvider.logout();
      void failed(callback.error === 'access_denied' ? 'SOCIAL_DENIED' : provider === 'facebook' ? 'FACEBOOK_CALLBACK_ERROR' : 'SOCIAL_SIGN_IN_FAILED');
      return;
    }
    if (consumed.has(callback.state)) return;
    consumed.add(callback.state);
    const { error: _error, ...answer } = callback;
    void authProvider
      .socialLogin({ provider, ...answer, redirectUrl: `${window.location.origin}${location.pathname}` })
      .then((result) => {
        if (!result.success) {
          void failed('messageKey' in result ? result.messageKey : 'DEFAULT');
          return;
        }
        return accountApi.purchasesAfterSignIn().then(({ subscription, licences }) => {
          const next = afterSocialLogin({
            lastPayment: subscription,
            perpetualLicences: licences,
            hasStoredCheckout: sessionStorage.getItem(STORED_CHECKOUT_KEY) !== null,
          });
          void navigate(localize(next), { replace: true });
        });
      })
      .catch(() => {
        void authProvider.logout();
        void failed('SOCIAL_SIGN_IN_FAILED');
      });
  }, [location.pathname, location.search, localize, navigate, provider]);

  return <FullPageSpinner />;
}
