import { useCustom } from '@refinedev/core';
import { useEffect } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import type { Me } from '../../../contract/users.js';
import type { DataError } from '../../../providers/dataProvider.js';
import { messageKeyOf } from '../../../providers/errors.js';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { useLocale } from '../../components/LocaleScope.js';
import { readCallback, type SocialProvider } from '../../components/social.js';
import { useRememberUser } from '../../data/useCurrentUser.js';
import { splitLocale } from '../../routing/locale.js';
import { paths } from '../../routing/paths.js';

/** What the profile shows after coming back from a provider. */
export interface SocialNotice {
  provider: SocialProvider;
  done?: 'connected' | 'disconnected';
  messageKey?: string;
}

/**
 * `google/connect`, `facebook/connect` and `facebook/disconnect`: the provider sent a signed-in user back.
 * The code links (or, proven once more, unlinks) the provider account, then the profile says how it went.
 *
 * The page exists to do that one thing on arrival (the person's action was "Connect" on the profile, before
 * the provider's pages). The server takes it as a POST (it changes the account and spends the provider's
 * one-time code; a GET would be repeated by whatever prefetches or retries reads), so it is asked as a
 * query of the address: Refine's useCustom, keyed by the code, sent once and never again while the
 * session's queries live (no retry, no refetch), where an effect fired a mutation and a set of codes already
 * sent kept a remount from sending it twice.
 */
export default function SocialAccount() {
  const { localize } = useLocale();
  const navigate = useNavigate();
  const location = useLocation();
  const remember = useRememberUser();
  const [, provider, purpose] = splitLocale(location.pathname).path.split('/') as [string, SocialProvider, 'connect' | 'disconnect'];
  const { error: providerError, ...callback } = readCallback(location.search);
  const refused =
    providerError || !callback.code ? (providerError === 'access_denied' ? 'SOCIAL_DENIED' : provider === 'facebook' ? 'FACEBOOK_CALLBACK_ERROR' : 'SOCIAL_SIGN_IN_FAILED') : null;

  const { query } = useCustom<Me, DataError>({
    url: purpose === 'connect' ? `/auth/${provider}/connect` : '/auth/facebook/disconnect',
    method: 'post',
    config: { payload: { ...callback, redirectUrl: `${window.location.origin}${location.pathname}` } },
    // The profile says how it went, so no notification here.
    errorNotification: false,
    queryOptions: {
      enabled: refused === null,
      retry: false,
      staleTime: Infinity,
      gcTime: Infinity,
      refetchOnMount: false,
      refetchOnWindowFocus: false,
      refetchOnReconnect: false,
    },
  });
  const user = query.isSuccess ? query.data.data : null;

  // The answer carries the user with the provider linked (or unlinked): the session's user from now on, then
  // the profile, which shows it.
  useEffect(() => {
    if (!user) return undefined;
    let current = true;
    const notice: SocialNotice = { provider, done: purpose === 'connect' ? 'connected' : 'disconnected' };
    const onward = () => current && void navigate(localize(paths.profile), { replace: true, state: { social: notice } });
    void remember(user).then(onward, onward);
    return () => {
      current = false;
    };
  }, [user, remember, navigate, localize, provider, purpose]);

  const messageKey = refused ?? (query.isError ? messageKeyOf(query.error) : null);
  if (messageKey !== null) {
    const notice: SocialNotice = { provider, messageKey };
    return <Navigate to={localize(paths.profile)} replace state={{ social: notice }} />;
  }
  return <FullPageSpinner />;
}
