import { useCustomMutation } from '@refinedev/core';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { Me } from '../../../contract/users.js';
import type { DataError } from '../../../providers/dataProvider.js';
import { FullPageSpinner } from '../../components/FullPageSpinner.js';
import { useLocale } from '../../components/LocaleScope.js';
import { readCallback, type SocialProvider } from '../../components/social.js';
import { errorKeyOf } from '../../data/useApiAction.js';
import { useRememberUser } from '../../data/useCurrentUser.js';
import { splitLocale } from '../../routing/locale.js';
import { paths } from '../../routing/paths.js';

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
  const remember = useRememberUser();
  const { mutateAsync } = useCustomMutation<Me, DataError>();
  const send = useRef(mutateAsync);
  send.current = mutateAsync;
  const [, provider, purpose] = splitLocale(location.pathname).path.split('/') as [string, SocialProvider, 'connect' | 'disconnect'];

  useEffect(() => {
    const callback = readCallback(location.search);
    const back = (notice: SocialNotice) => void navigate(localize(paths.profile), { replace: true, state: { social: notice } });
    if (callback.error || !callback.code) {
      back({ provider, messageKey: callback.error === 'access_denied' ? 'SOCIAL_DENIED' : provider === 'facebook' ? 'FACEBOOK_CALLBACK_ERROR' : 'SOCIAL_SIGN_IN_FAILED' });
      return;
    }
    if (consumed.has(callback.state)) return;
    consumed.add(callback.state);
    const { error: _error, ...answer } = callback;
    const body = { ...answer, redirectUrl: `${window.location.origin}${location.pathname}` };
    const url = purpose === 'connect' ? `/auth/${provider}/connect` : '/auth/facebook/disconnect';
    // The profile says how it went, so no notification here.
    send.current({ url, method: 'post', values: body, errorNotification: false }).then(
      async ({ data: user }) => {
        await remember(user);
        back({ provider, done: purpose === 'connect' ? 'connected' : 'disconnected' });
      },
      (error: unknown) => back({ provider, messageKey: errorKeyOf(error) }),
    );
  }, [remember, location.pathname, location.search, localize, navigate, provider, purpose]);

  return <FullPageSpinner />;
}
