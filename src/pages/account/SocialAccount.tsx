import { useInvalidateAuthStore } from '@refinedev/core';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { messageKeyOf } from '../../../providers/http.js';
import { accountApi, authProvider } from '../../../providers/index.js';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { useLocale } from '../../components/LocaleScope.js';
import { readCallback, type SocialProvider } from '../../components/social.js';
import { splitLocale } from '../../routing/locale.js';

/** What the profile shows after coming back from a provider. */
export interface SocialNotice {
  provider: SocialProvider;
  done?: 'connected' | 'disconnected';
  messageKey?: string;
}

const consumed = new Set<string>();

/**
 * `google/connect`, `facebook/connect` and `facebook/disconnect`: the provider sent a signed-in user back.
 * The code links (or, proven once more, unlinks) the provider account, then the profile says how it went.
 */
export default function SocialAccount() {
  const { localize } = useLocale();
  const navigate = useNavigate();
  const location = useLocation();
  const invalidateAuth = useInvalidateAuthStore();
  const [, provider, purpose] = splitLocale(location.pathname).path.split('/') as [string, SocialProvider, 'connect' | 'disconnect'];

  useEffect(() => {
    const callback = readCallback(location.search);
    const back = (notice: SocialNotice) => navigate(localize('/account/profile'), { replace: true, state: { social: notice } });
    if (callback.error || !callback.code) {
      back({ provider, messageKey: callback.error === 'access_denied' ? 'SOCIAL_DENIED' : provider === 'facebook' ? 'FACEBOOK_CALLBACK_ERROR' : 'SOCIAL_SIGN_IN_FAILED' });
      return;
    }
    if (consumed.has(callback.state)) return;
    consumed.add(callback.state);
    const { error: _error, ...answer } = callback;
    const body = { ...answer, redirectUrl: `${window.location.origin}${location.pathname}` };
    const request = purpose === 'connect' ? accountApi.connectSocial(provider, body) : accountApi.disconnectFacebook(body);
    request.then(
      (user) => {
        authProvider.rememberUser(user);
        void invalidateAuth();
        back({ provider, done: purpose === 'connect' ? 'connected' : 'disconnected' });
      },
      (error: unknown) => back({ provider, messageKey: messageKeyOf(error) }),
    );
  }, [invalidateAuth, location.pathname, location.search, localize, navigate, provider, purpose]);

  return <FullPageSpinner />;
}
